/** The staff statistics through HTTP on the memory host (test/support/StatsScenarios.ts). */
import { statsScenarios } from "./support/StatsScenarios.ts"

statsScenarios()
