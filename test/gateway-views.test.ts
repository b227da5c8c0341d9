/**
 * What a gateway session sees (per-channel filtering, MESSAGE_CONTENT on replies) on the in-memory
 * test host. The scenarios live in support/GatewayViewScenarios.ts, shared with the PostgreSQL run
 * (adapters/postgres/test/GatewayViews.test.ts).
 */
import { gatewayViewScenarios } from "./support/GatewayViewScenarios.ts"

gatewayViewScenarios()
