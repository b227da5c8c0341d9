/**
 * A local SMTP server (the `smtp-server` package) standing in for a mail provider: it records the
 * login, envelope and raw message of every letter, and can refuse recipients. It lives for the
 * enclosing scope; `silent` is a TCP server that accepts and never greets (to test time limits).
 */
import { type AddressInfo, createServer, type Socket } from "node:net"
import { Effect, type Scope } from "effect"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  readonly login?: { readonly username: string; readonly password: string } | undefined
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

export interface Options {
  /** Recipients to refuse with a permanent 550. */
  readonly refuse?: ReadonlyArray<string> | undefined
  /** TLS from the first byte, with smtp-server's built-in self-signed certificate. */
  readonly secure?: boolean | undefined
}

export interface FakeSmtpServer {
  readonly port: number
  readonly received: ReadonlyArray<ReceivedMail>
}

export const start = (options: Options = {}): Effect.Effect<FakeSmtpServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<{ server: SMTPServer; fake: FakeSmtpServer }>((resume) => {
      const received: Array<ReceivedMail> = []
      const logins = new Map<string, { username: string; password: string }>()
      const server = new SMTPServer({
        secure: options.secure === true,
        logger: false,
        // A plain local server: no STARTTLS offered, and AUTH allowed without TLS.
        disabledCommands: ["STARTTLS"],
        allowInsecureAuth: true,
        authOptional: true,
        onAuth(auth, session, callback) {
          logins.set(session.id, { username: auth.username ?? "", password: auth.password ?? "" })
          callback(null, { user: auth.username })
        },
        onRcptTo(address, _session, callback) {
          if (options.refuse?.includes(address.address)) {
            const error = Object.assign(new Error("5.1.1 No such mailbox"), { responseCode: 550 })
            return callback(error)
          }
          callback()
        },
        onData(stream, session, callback) {
          const chunks: Array<Buffer> = []
          stream.on("data", (chunk: Buffer) => chunks.push(chunk))
          stream.on("end", () => {
            const from = session.envelope.mailFrom
            received.push({
              login: logins.get(session.id),
              from: from === false ? "" : from.address,
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw: Buffer.concat(chunks).toString("utf8")
            })
            callback()
          })
        }
      })
      // Clients that drop the connection (a refused certificate, a timeout) are expected here.
      server.on("error", () => {})
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.server.address() as AddressInfo
        resume(Effect.succeed({ server, fake: { port, received } }))
      })
    }),
    ({ server }) => Effect.callback<void>((resume) => server.close(() => resume(Effect.void)))
  ).pipe(Effect.map(({ fake }) => fake))

/** A server that accepts connections and never says a word. */
export const silent: Effect.Effect<number, never, Scope.Scope> = Effect.acquireRelease(
  Effect.callback<{ server: ReturnType<typeof createServer>; sockets: Set<Socket> }>((resume) => {
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on("error", () => {})
    })
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, sockets })))
  }),
  ({ server, sockets }) =>
    Effect.callback<void>((resume) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resume(Effect.void))
    })
).pipe(Effect.map(({ server }) => (server.address() as AddressInfo).port))
