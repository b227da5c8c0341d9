/**
 * `@veche/auth`'s PasswordHasher with argon2id through `@node-rs/argon2`, stored as PHC strings.
 *
 * - The bytes hashed are `PasswordHasher.encode`'s (as typed, capped at 1 KiB).
 * - `verify` reads the stored hash's header and reports `needsRehash` when it was made with other
 *   parameters than the current ones.
 * - The dummy hash for `verifyDummy` is made once, when the layer is built, with the current
 *   parameters, so it costs what a real one costs.
 * - At most `concurrency` hashes run at once (default `defaultConcurrency()`: one more than the
 *   number of CPUs, but one thread fewer than libuv's pool); a burst of logins waits in the
 *   semaphore. The library's async functions run on the libuv threadpool, which Node shares with
 *   `fs`, `dns.lookup`, zlib and image processing. It has 4 threads unless `UV_THREADPOOL_SIZE`,
 *   set before the pool's first use, says otherwise: a host that wants a hash per CPU and more sizes
 *   the pool (the reference server does, from the hashes and images it allows at once).
 *
 * Layers: `layer(options)` (production), `layerConfig` (`SERVICE_PASSWORD_HASH_CONCURRENCY`), and
 * `layerTest` (cheap parameters, for test suites only).
 */

import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2"
import { PasswordHasher } from "@veche/auth"
import { Config, Effect, Layer, Option, type Redacted, Schema, Semaphore } from "effect"
import * as Concurrency from "./Concurrency.ts"
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
}

/**
 * `@node-rs/argon2`'s async functions, which run on the libuv threadpool (not on the main thread).
 * `verify` reads the algorithm, version and costs from the PHC string itself.
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

/** Hashes allowed at once by default: one more than the CPUs, below libuv's pool size (Concurrency.ts). */
export const defaultConcurrency = (): number => Concurrency.defaultConcurrency()

export interface Options {
  /** Hashes allowed to run at once; a positive integer. Default: `defaultConcurrency()`. */
  readonly concurrency?: number | undefined
  /** Parameters for new hashes and the rehash check. Default: `DEFAULT_PARAMS`. */
  readonly params?: Argon2Params | undefined
  /** The native calls. Default: `nativeBackend`. */
  readonly backend?: Argon2Backend | undefined
}

/** Builds the service; the dummy hash is computed here, once. */
export const make = (options: Options = {}): Effect.Effect<PasswordHasher.PasswordHasher["Service"]> =>
  Effect.gen(function* () {
    const concurrency = options.concurrency ?? defaultConcurrency()
    // A bad value is a wiring bug: zero permits would make every login hang forever.
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      return yield* Effect.die(`PasswordHasher: concurrency must be a positive integer, got ${concurrency}`)
    }
    const params = options.params ?? DEFAULT_PARAMS
    const backend = options.backend ?? nativeBackend
    const semaphore = yield* Semaphore.make(concurrency)

    // Uninterruptible inside the permit: the native work cannot be stopped once it has started,
    // so the permit must stay taken until it has really finished, or the bound would leak when
    // requests are cancelled. Waiting for a permit stays interruptible.
    const bounded = <A>(run: () => Promise<A>): Effect.Effect<A> =>
      semaphore.withPermits(1)(Effect.uninterruptible(Effect.promise(run)))

    // The dummy password's value does not matter (`verifyDummy` answers invalid regardless);
    // what matters is that the hash carries the current parameters, so it costs what a real one costs.
    const dummyPhc = yield* bounded(() => backend.hash(new TextEncoder().encode("veche-dummy-password"), params))

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
 * cheaper. Its PHC strings carry their parameters, so the production hasher verifies them too
 * (and reports `needsRehash`).
 */
export const layerTest: Layer.Layer<PasswordHasher.PasswordHasher> = Layer.effect(
  PasswordHasher.PasswordHasher,
  make({ params: TEST_PARAMS })
)
