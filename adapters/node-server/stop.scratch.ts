import { Effect, References } from "effect"
import * as fs from "node:fs"
const { EmbeddedPostgres } = await import(process.env.MOD!)
const dataDir = process.argv[2]!
const t0 = performance.now()
const program = Effect.gen(function* () {
  yield* EmbeddedPostgres
  const pid = Number(fs.readFileSync(dataDir + "/pg/postmaster.pid", "utf8").split("\n")[0])
  process.kill(pid, "SIGSTOP")
  console.log("stopped (SIGSTOP) postgres", pid)
}).pipe(Effect.provide(EmbeddedPostgres.layer({ dataDir })))
await Effect.runPromise(program)
console.log("scope closed after", Math.round(performance.now() - t0), "ms")
