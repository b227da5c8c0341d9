/**
 * Guild routes through HTTP on the in-memory test host. The scenarios live in
 * support/GuildScenarios.ts, shared with the PostgreSQL run (adapters/postgres/test/GuildRoutes.test.ts).
 */
import { guildRouteScenarios } from "./support/GuildScenarios.ts"

guildRouteScenarios()
