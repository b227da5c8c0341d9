/** The OAuth 2.0 provider through HTTP on memory (the scenarios: support/OAuthScenarios.ts). */
import { oauthScenarios } from "./support/OAuthScenarios.ts"

oauthScenarios()
