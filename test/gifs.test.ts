/** The GIF proxy through HTTP on memory (the scenarios: support/GifScenarios.ts). */
import { gifScenarios } from "./support/GifScenarios.ts"

gifScenarios()
