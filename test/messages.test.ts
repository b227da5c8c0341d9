/** Messages through HTTP on memory (the scenarios: support/MessageScenarios.ts). */
import { messageScenarios } from "./support/MessageScenarios.ts"

messageScenarios()
