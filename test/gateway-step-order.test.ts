/** The gateway's step-order scenarios (test/support/GatewayStepScenarios.ts) on the memory host. */
import { gatewayStepScenarios } from "./support/GatewayStepScenarios.ts"

gatewayStepScenarios()
