/** The staff tools through HTTP on memory (the scenarios: support/StaffScenarios.ts). */
import { staffScenarios } from "./support/StaffScenarios.ts"

staffScenarios()
