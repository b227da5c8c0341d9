/**
 * A free TCP port on 127.0.0.1, found by letting the kernel pick one (bind to port 0) and releasing it.
 * Another process may take it before postgres binds it; postgres then fails to start with "Address
 * already in use" in its output, which is rare enough to report rather than retry.
 */
import * as net from "node:net"
import { Effect } from "effect"
import { EmbeddedPostgresError } from "./EmbeddedPostgresError.ts"

export const freeLoopbackPort: Effect.Effect<number, EmbeddedPostgresError> = Effect.callback((resume) => {
  const server = net.createServer()
  const fail = (cause: unknown) =>
    resume(
      Effect.fail(
        new EmbeddedPostgresError({
          reason: "cannot find a free port on 127.0.0.1",
          cause
        })
      )
    )
  server.once("error", fail)
  server.listen({ host: "127.0.0.1", port: 0, exclusive: true }, () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : undefined
    server.close(() => (port === undefined ? fail(address) : resume(Effect.succeed(port))))
  })
})
