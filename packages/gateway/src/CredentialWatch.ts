/**
 * Revocation reaching open sessions. A session is authenticated at IDENTIFY (or RESUME) and rests
 * from then on on what its token proved (GatewayIdentity.Credential): a login session, or a bot's
 * token. This node's watch asks the store whether those still hold, many at a time, on one fiber of
 * its own (never on a connection's step queue), and a connection whose credential no longer holds is
 * told to close (4004, its session ended, as an IDENTIFY with that token would be answered).
 *
 * When it asks:
 * - for a user's sessions, on word that the user's credentials may have changed (CredentialChanges:
 *   on PostgreSQL every node hears each change at once). Word for users with no session here costs
 *   one map lookup; word repeated while a check is pending is folded into it (each pool connection
 *   hears each change: word is gathered for GATHER_MS before each check);
 * - for a connection as it starts being watched (that one alone): word may have come between the
 *   store's answer to its IDENTIFY and now, and no one was listening for it;
 * - for every session, once `credentialCheckIntervalMs` (the bound where no word comes: memory
 *   stores, a bot's token on a store without triggers, a lost notification), and on `*` (the store
 *   lost track). In batches, one after another, each credential once however many connections
 *   rest on it.
 *
 * A store that cannot answer leaves the sessions open; they are asked again after RETRY_MS (and
 * at the next word or interval).
 */
import { CredentialChanges, type Snowflake } from "@veche/platform"
import { Duration, Effect, Exit, Latch } from "effect"
import { GatewayConfig } from "./GatewayConfig.ts"
import { type Credential, credentialKey, GatewayIdentity } from "./GatewayIdentity.ts"

/** One connection's credential, while it rests on it. */
export interface Watched {
  readonly userId: Snowflake.Snowflake
  readonly credential: Credential
  /** The credential no longer holds: the connection queues its own close. Called at most once. */
  readonly revoked: () => void
}

/** Credentials asked in one call of the store. */
export const BATCH = 500

/** How long word is gathered before a check asks (see the checker). */
export const GATHER_MS = 20

/** How soon a question the store could not answer is asked again (by the Clock). */
export const RETRY_MS = 5000

export const make = Effect.gen(function* () {
  const config = yield* GatewayConfig
  const identities = yield* GatewayIdentity
  const byUser = new Map<string, Set<Watched>>()
  /** Users to ask about at the next check (word), connections just watched, or everyone. */
  let pending = new Set<string>()
  let fresh = new Set<Watched>()
  /** Connections whose question the store could not answer: asked again after RETRY_MS. */
  const retry = new Set<Watched>()
  let everyone = false
  let retrying = false
  const due = yield* Latch.make(false)
  /** Some connection is watched: the interval's timer runs only then (see the heartbeat sweep). */
  const someWatched = yield* Latch.make(false)

  const askAbout = (userId: string) => {
    if (!byUser.has(userId)) return
    pending.add(userId)
    due.openUnsafe()
  }
  const askEveryone = () => {
    if (byUser.size === 0) return
    everyone = true
    due.openUnsafe()
  }

  /** Stops watching `entry`; false if it was not watched. */
  const forget = (entry: Watched): boolean => {
    const held = byUser.get(entry.userId)
    if (held === undefined || !held.delete(entry)) return false
    if (held.size === 0) byUser.delete(entry.userId)
    return true
  }

  /**
   * Asks about each credential once, however many connections rest on it (a bot's shards, one
   * login session's tabs), and tells the connections resting on those that no longer hold.
   */
  const check = (entries: Iterable<Watched>) =>
    Effect.gen(function* () {
      const byCredential = new Map<string, Array<Watched>>()
      for (const entry of entries) {
        const key = credentialKey(entry.credential)
        const resting = byCredential.get(key)
        if (resting === undefined) byCredential.set(key, [entry])
        else resting.push(entry)
      }
      const groups = [...byCredential.values()]
      for (let from = 0; from < groups.length; from += BATCH) {
        const batch = groups.slice(from, from + BATCH)
        const answer = yield* Effect.exit(identities.holding(batch.map((resting) => resting[0] as Watched)))
        if (Exit.isFailure(answer)) {
          yield* Effect.logWarning("gateway: could not ask whether open sessions' credentials hold", answer.cause)
          // asked again soon, not only at the next interval: what changed meanwhile had no answer
          for (const resting of batch) for (const entry of resting) retry.add(entry)
          continue
        }
        answer.value.forEach((holds, i) => {
          if (holds) return
          // still watched: a connection that ended or moved on to another credential meanwhile is
          // not told; one told is watched no more (told once)
          for (const entry of batch[i] ?? []) if (forget(entry)) entry.revoked()
        })
      }
    })

  // The checks, one after another: what is asked for while one runs waits for the next.
  yield* Effect.gen(function* () {
    yield* due.await
    // The same word comes once per listening pool connection, each read apart: let it all arrive
    // and ask once. Real time, not the Clock's: it is the sockets' timing (a test clock would stop it).
    yield* Effect.callback<void>((resume) => {
      const timer = setTimeout(() => resume(Effect.void), GATHER_MS)
      return Effect.sync(() => clearTimeout(timer))
    })
    due.closeUnsafe()
    const users = everyone ? [...byUser.keys()] : [...pending]
    const entries = fresh
    everyone = false
    pending = new Set()
    fresh = new Set()
    for (const userId of users) for (const entry of byUser.get(userId) ?? []) entries.add(entry)
    yield* check(entries)
    if (retry.size > 0 && !retrying) {
      retrying = true
      yield* Effect.forkScoped(
        Effect.andThen(
          Effect.sleep(Duration.millis(RETRY_MS)),
          Effect.sync(() => {
            retrying = false
            for (const entry of retry) fresh.add(entry)
            retry.clear()
            due.openUnsafe()
          })
        )
      )
    }
  }).pipe(
    // a check that failed in a way no answer explains (a defect) must not stop the watch
    Effect.catchCause((cause) => Effect.logError("gateway: a credential check failed", cause)),
    Effect.forever,
    Effect.forkScoped
  )

  // Every session once an interval, whatever word came.
  yield* Effect.gen(function* () {
    yield* someWatched.await
    yield* Effect.sleep(Duration.millis(config.credentialCheckIntervalMs))
    if (byUser.size === 0) someWatched.closeUnsafe()
    else askEveryone()
  }).pipe(Effect.forever, Effect.forkScoped)

  const unsubscribe = (yield* CredentialChanges.CredentialChanges).subscribe((changed) =>
    changed === CredentialChanges.EVERYONE ? askEveryone() : askAbout(changed)
  )
  yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))

  /** Watches `entry` until what it returns is called (the connection ended or rests on another credential). */
  const watch = (entry: Watched): (() => void) => {
    let own = byUser.get(entry.userId)
    if (own === undefined) {
      own = new Set()
      byUser.set(entry.userId, own)
    }
    own.add(entry)
    someWatched.openUnsafe()
    // this one only: a user's hundredth session does not ask about the other ninety-nine again
    fresh.add(entry)
    due.openUnsafe()
    return () => {
      forget(entry)
    }
  }

  return { watch }
})
