/** What Plus unlocks, through HTTP on memory (the scenarios: support/PlusScenarios.ts). */
import { plusScenarios } from "./support/PlusScenarios.ts"

plusScenarios()
