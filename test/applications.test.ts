/** Developer applications and bot tokens through HTTP on memory (the scenarios: support/ApplicationScenarios.ts). */
import { applicationScenarios } from "./support/ApplicationScenarios.ts"

applicationScenarios()
