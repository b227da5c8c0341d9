/** The build version reported by GET /version: this package's version. */
import pkg from "../package.json" with { type: "json" }

export const VERSION: string = pkg.version
