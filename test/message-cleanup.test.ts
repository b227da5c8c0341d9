/** Messages of deleted channels and guilds on memory; the scenarios are in support/MessageCleanupScenarios.ts. */
import { messageCleanupScenarios } from "./support/MessageCleanupScenarios.ts"

messageCleanupScenarios()
