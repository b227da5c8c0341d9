/** Input refused at the boundary (test/support/BoundaryScenarios.ts) on the memory host. */
import { boundaryScenarios } from "./support/BoundaryScenarios.ts"

boundaryScenarios()
