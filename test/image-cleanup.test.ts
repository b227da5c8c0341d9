/** Image deletion through HTTP on the memory host (the same scenarios run on PostgreSQL). */
import { imageCleanupScenarios } from "./support/ImageCleanupScenarios.ts"

imageCleanupScenarios()
