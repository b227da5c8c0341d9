/**
 * The gateway through a real socket on the in-memory test host. The scenarios live in
 * support/GatewayScenarios.ts, shared with the PostgreSQL run (adapters/postgres/test/GatewayRoutes.test.ts).
 */
import { gatewayScenarios } from "./support/GatewayScenarios.ts"

gatewayScenarios()
