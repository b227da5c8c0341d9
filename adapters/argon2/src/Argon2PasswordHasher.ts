/**
 * `@veche/auth`'s PasswordHasher with argon2id through `@node-rs/argon2`, stored as PHC strings.
 *
 * - The bytes hashed are `PasswordHasher.encode`'s (as typed, capped at 1 KiB).
 * - `verify` reads the stored hash's header and reports `needsRehash` when it was made with other
 *   parameters than the current ones.
 * - The dummy hash for `verifyDummy` is made once, when the layer is built, with the current
 *   parameters, so it costs what a real one costs.
 * - Where the hashes run: by default on threads of their own (`HashThreads.ts`), `concurrency` of
 *   them (default one a CPU, `defaultConcurrency()`), started at the first hash; each has one call
 *   running and one queued, and a burst of logins waits in a semaphore, where a cancelled login
 *   leaves without hashing. `backend: nativeBackend` runs them on libuv's pool instead (no threads
 *   of their own; a host then bounds them below the pool's size, `Concurrency.poolConcurrency`).
 *
 * Layers: `layer(options)` (production), `layerConfig` (`SERVICE_PASSWORD_HASH_CONCURRENCY`), and
 * `layerTest` (cheap parameters on libuv's pool, for test suites only).
 */

import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2"
import { PasswordHasher } from "@veche/auth"
import { Config, Effect, Layer, Option, type Redacted, Schema, type Scope, Semaphore } from "effect"
import * as Concurrency from "./Concurrency.ts"
import * as HashThreads from "./HashThreads.ts"
import * as PasswordPhc from "./internal/PasswordPhc.ts"

export type Argon2Params = PasswordPhc.Argon2Params

/**
 * The production parameters: OWASP's argon2id minimum and the library's defaults, written out so
 * that a library upgrade that changes its defaults cannot silently change ours. The algorithm is
 * left to the library's default (argon2id): its `Algorithm` const enum cannot be referenced under
 * `verbatimModuleSyntax`.
 */
export const DEFAULT_PARAMS: Argon2Params = { memoryCost: 19_456, timeCost: 2, parallelism: 1 }

/**
 * Cheap parameters for `layerTest` (about 0.2 ms per verify instead of about 6 ms). Far too weak
 * for real passwords: never use them in production.
 */
export const TEST_PARAMS: Argon2Params = { memoryCost: 1_024, timeCost: 1, parallelism: 1 }

/**
 * The native calls, replaceable so tests can observe them (e.g. count calls in flight). Both take
 * the password as UTF-8 bytes.
 */
export interface Argon2Backend {
  readonly hash: (password: Uint8Array, params: Argon2Params) => Promise<string>
  readonly verify: (phc: string, password: Uint8Array) => Promise<boolean>
  /** Calls to keep in flight at once; default: the hasher's `concurrency`. */
  readonly permits?: number | undefined
}

/**
 * `@node-rs/argon2`'s async functions, which run on the libuv threadpool (not on the main thread).
 * `verify` reads the algorithm, version and costs from the PHC string itself. At most
 * `Concurrency.poolConcurrency()` at once leaves the pool a thread for everything else.
 */
export const nativeBackend: Argon2Backend = {
  hash: (password, params) =>
    argon2Hash(password, {
      memoryCost: params.memoryCost,
      timeCost: params.timeCost,
      parallelism: params.parallelism
    }),
  verify: (phc, password) => argon2Verify(phc, password)
}

/** Hashes run at once by default: one a CPU, each on a thread of its own (Concurrency.ts). */
export const defaultConcurrency = (): number => Concurrency.forTheCpus()

export interface Options {
  /**
   * Hashes run at once; a positive integer. With the default backend, the threads started; with
   * another, the calls in flight. Default: `defaultConcurrency()`.
   */
  readonly concurrency?: number | undefined
  /** Parameters for new hashes and the rehash check. Default: `DEFAULT_PARAMS`. */
  readonly params?: Argon2Params | undefined
  /**
   * The native calls. Default: `concurrency` threads of their own (`HashThreads`), stopped when the
   * layer's scope closes. `nativeBackend` runs them on libuv's pool.
   */
  readonly backend?: Argon2Backend | undefined
}

/**
 * Builds the service; the dummy hash is computed here, once (on libuv's pool with the default
 * backend, so that the hash threads start only when a password is hashed). The scope stops the
 * hash threads.
 */
export const make = (
  options: Options = {}
): Effect.Effect<PasswordHasher.PasswordHasher["Service"], never, Scope.Scope> =>
  Effect.gen(function* () {
    const concurrency = options.concurrency ?? defaultConcurrency()
    // A bad value is a wiring bug: zero permits would make every login hang forever.
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      return yield* Effect.die(`PasswordHasher: concurrency must be a positive integer, got ${concurrency}`)
    }
    const params = options.params ?? DEFAULT_PARAMS
    const backend =
      options.backend ??
      (yield* Effect.acquireRelease(
        Effect.sync(() => HashThreads.make(concurrency)),
        (threads) => Effect.promise(() => threads.close())
      ))
    // The hash threads take one call running and one queued each (`HashThreads.permits`).
    const semaphore = yield* Semaphore.make(backend.permits ?? concurrency)

    // Uninterruptible inside the permit: the native work cannot be stopped once it has started,
    // so the permit must stay taken until it has really finished, or the bound would leak when
    // requests are cancelled. Waiting for a permit stays interruptible.
    const bounded = <A>(run: () => Promise<A>): Effect.Effect<A> =>
      semaphore.withPermits(1)(Effect.uninterruptible(Effect.promise(run)))

    // The dummy password's value does not matter (`verifyDummy` answers invalid regardless);
    // what matters is that the hash carries the current parameters, so it costs what a real one costs.
    const dummyBackend = options.backend ?? nativeBackend
    const dummyPhc = yield* bounded(() => dummyBackend.hash(new TextEncoder().encode("veche-dummy-password"), params))

    const hash = Effect.fn("PasswordHasher.hash")(function* (password: Redacted.Redacted<string>) {
      const bytes = yield* PasswordHasher.encode(password)
      return yield* bounded(() => backend.hash(bytes, params))
    })

    // Untraced, as every step a login takes below `Login.login`'s own span: a traced function
    // captures a stack trace on each call.
    const verify = Effect.fnUntraced(function* (phc: string, password: Redacted.Redacted<string>) {
      const bytes = yield* PasswordHasher.encode(password)
      const header = PasswordPhc.parse(phc)
      if (Option.isNone(header)) return yield* Effect.die(new PasswordHasher.MalformedPasswordHash())
      const valid = yield* bounded(() => backend.verify(phc, bytes))
      return {
        valid,
        needsRehash: valid && PasswordPhc.differs(header.value, params)
      } satisfies PasswordHasher.VerifyResult
    })

    const verifyDummy = Effect.fnUntraced(function* (password: Redacted.Redacted<string>) {
      const bytes = yield* PasswordHasher.encode(password)
      yield* bounded(() => backend.verify(dummyPhc, bytes))
      return { valid: false, needsRehash: false } satisfies PasswordHasher.VerifyResult
    })

    return PasswordHasher.PasswordHasher.of({ hash, verify, verifyDummy })
  })

/** The production hasher: argon2id with `DEFAULT_PARAMS`, at most `defaultConcurrency()` hashes at a time. */
export const layer = (options: Options = {}): Layer.Layer<PasswordHasher.PasswordHasher> =>
  Layer.effect(PasswordHasher.PasswordHasher, make(options))

/** `layer()` with the concurrency from `SERVICE_PASSWORD_HASH_CONCURRENCY` (default: `defaultConcurrency()`). */
export const layerConfig: Layer.Layer<PasswordHasher.PasswordHasher, Config.ConfigError> = Layer.effect(
  PasswordHasher.PasswordHasher,
  Effect.flatMap(
    Config.schema(
      Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1))),
      "SERVICE_PASSWORD_HASH_CONCURRENCY"
    ).pipe(Config.withDefault(defaultConcurrency())),
    (concurrency) => make({ concurrency })
  )
)

/**
 * FOR TESTS ONLY, never in production: real argon2id hashing with `TEST_PARAMS`, about 30 times
 * cheaper, on libuv's pool (no threads started for each test host). Its PHC strings carry their
 * parameters, so the production hasher verifies them too (and reports `needsRehash`).
 */
export const layerTest: Layer.Layer<PasswordHasher.PasswordHasher> = Layer.effect(
  PasswordHasher.PasswordHasher,
  make({ params: TEST_PARAMS, backend: nativeBackend, concurrency: Concurrency.poolConcurrency() })
)
