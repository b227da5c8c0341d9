/**
 * Revocation reaching open gateway sessions on the in-memory test host. The scenarios live in
 * support/GatewayRevocationScenarios.ts, shared with the PostgreSQL run
 * (adapters/postgres/test/GatewayRevocation.test.ts).
 */
import { gatewayRevocationScenarios } from "./support/GatewayRevocationScenarios.ts"

gatewayRevocationScenarios()
