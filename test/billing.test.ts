/** Plus and boosts through HTTP on memory (the scenarios: support/BillingScenarios.ts). */
import { billingScenarios } from "./support/BillingScenarios.ts"

billingScenarios()
