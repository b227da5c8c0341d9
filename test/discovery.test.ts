/** The public catalogue through HTTP on memory (the scenarios: support/DiscoveryScenarios.ts). */
import { discoveryScenarios } from "./support/DiscoveryScenarios.ts"

discoveryScenarios()
