/**
 * The load driver for `POST /api/v10/auth/refresh`, which autocannon cannot drive: every refresh
 * spends the token it sends, so each request must carry the token the previous one answered. Each
 * connection keeps its own chain (one login, then refresh after refresh with the newest refresh
 * token), so N connections are N independent sessions, as N clients would be.
 *
 * node:http with a keep-alive agent of exactly N sockets rather than fetch: the driver shares the
 * machine's cores with the server, and node:http costs it less per request.
 */
import { Agent, request } from "node:http"
import type { TokenPair } from "./Accounts.ts"
import type { LoadResult } from "./Load.ts"
import { Samples } from "./Samples.ts"

export interface Chains {
  /** Refreshes on every chain for `seconds`, then waits for the requests in flight. */
  readonly run: (seconds: number) => Promise<LoadResult>
  readonly close: () => void
}

const post = (agent: Agent, url: URL, body: string): Promise<{ readonly status: number; readonly text: string }> =>
  new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        agent,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) }
      },
      (response) => {
        let text = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => {
          text += chunk
        })
        response.once("end", () => resolve({ status: response.statusCode ?? 0, text }))
        response.once("error", reject)
      }
    )
    sent.once("error", reject)
    sent.end(body)
  })

/** Logs chain `index` in with `login(index)` (once; its own account), ready to refresh. */
export const start = async (
  base: string,
  connections: number,
  login: (index: number) => Promise<TokenPair>
): Promise<Chains> => {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const url = new URL(`${base}/api/v10/auth/refresh`)
  const tokens = await Promise.all(
    Array.from({ length: connections }, async (_, index) => (await login(index)).refresh_token)
  )

  const chain = async (index: number, deadline: number, samples: Samples) => {
    while (performance.now() < deadline) {
      const done = samples.start()
      const answer = await post(agent, url, JSON.stringify({ refresh_token: tokens[index] })).catch(() => undefined)
      if (answer?.status === 200) {
        tokens[index] = (JSON.parse(answer.text) as TokenPair).refresh_token
        done(true)
      } else {
        // A broken chain is counted (the run is then refused) and started again from a login.
        done(false)
        tokens[index] = (await login(index)).refresh_token
      }
    }
  }

  return {
    run: async (seconds) => {
      const samples = new Samples()
      const began = performance.now()
      const deadline = began + seconds * 1000
      await Promise.all(tokens.map((_, index) => chain(index, deadline, samples)))
      return samples.result((performance.now() - began) / 1000)
    },
    close: () => agent.destroy()
  }
}
