/**
 * Stand-ins for the ports the account flows use, so their rules run without argon2, an authenticator
 * library, a captcha provider or a delivery worker: each keeps the port's contract in the simplest way
 * a test can see through (a readable "hash", codes numbered in order, a queue that keeps its jobs).
 */
import { Captcha, DeliveryQueue } from "@veche/platform"
import { Context, Effect, Layer, Option, Redacted, Ref } from "effect"
import { PasswordHasher, PasswordTooLong } from "../../src/PasswordHasher.ts"
import { TotpCodes } from "../../src/TotpCodes.ts"
import { VerificationCodes } from "../../src/VerificationCodes.ts"

/** `plain:<password>`; a `stale:` hash verifies the same and asks for a rehash (parameters changed). */
export const hasherLayer: Layer.Layer<PasswordHasher> = Layer.succeed(
  PasswordHasher,
  PasswordHasher.of({
    hash: (password) =>
      Redacted.value(password).length > 1024
        ? Effect.fail(new PasswordTooLong({ maxBytes: 1024 }))
        : Effect.succeed(`plain:${Redacted.value(password)}`),
    verify: (phc, password) => {
      const [scheme, ...rest] = phc.split(":")
      const valid = rest.join(":") === Redacted.value(password) && (scheme === "plain" || scheme === "stale")
      return Effect.succeed({ valid, needsRehash: valid && scheme === "stale" })
    },
    verifyDummy: () => Effect.succeed({ valid: false, needsRehash: false })
  })
)

/** Any token but "bad" passes; "down" is the provider being unreachable. */
export const captchaLayer: Layer.Layer<Captcha.Captcha> = Layer.succeed(
  Captcha.Captcha,
  Captcha.Captcha.of({
    service: "dev",
    siteKey: Option.none(),
    verify: (token) =>
      token === "bad"
        ? Effect.fail(new Captcha.CaptchaInvalid({ reason: "test" }))
        : token === "down"
          ? Effect.fail(new Captcha.CaptchaUnavailable({ provider: "test", reason: "test" }))
          : Effect.void
  })
)

/** The step an app code belongs to: 30 seconds, as RFC 6238's default. */
export const STEP_MS = 30_000

/** Six digits from the secret and the step, so codes differ by secret and by time. */
const codeFor = (secret: string, step: number) => {
  const seed = [...secret].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 0) % 1_000_000
  return String((seed + step) % 1_000_000).padStart(6, "0")
}

/** TOTP as the port promises it: the current step ±1, and only later than the last used step. */
export const totpLayer: Layer.Layer<TotpCodes> = Layer.succeed(
  TotpCodes,
  TotpCodes.of({
    codeAt: (secret, nowMs) => Effect.succeed(codeFor(secret, Math.floor(nowMs / STEP_MS))),
    matchStep: (secret, code, nowMs, afterStep) => {
      const now = Math.floor(nowMs / STEP_MS)
      const step = [now - 1, now, now + 1].find(
        (candidate) => codeFor(secret, candidate) === code && (afterStep === undefined || candidate > afterStep)
      )
      return Effect.succeed(step)
    }
  })
)

/** Codes `100001`, `100002`, … (four digits for carrier checks); the digest is readable. */
export const codesLayer: Layer.Layer<VerificationCodes> = Layer.effect(
  VerificationCodes,
  Effect.map(Ref.make(100_000), (counter) =>
    VerificationCodes.of({
      issue: (length) =>
        Ref.updateAndGet(counter, (n) => n + 1).pipe(
          Effect.map((n) => {
            const code = String(n).slice(-length)
            return { code: Redacted.make(code), digest: `digest:${code}` }
          })
        ),
      digest: (code) => Effect.succeed(`digest:${code}`)
    })
  )
)

/** What the flows queued, newest last; `down` makes the queue refuse as a full or broken store does. */
export class Outbox extends Context.Service<
  Outbox,
  {
    readonly jobs: Ref.Ref<ReadonlyArray<DeliveryQueue.Job>>
    readonly down: Ref.Ref<boolean>
  }
>()("@veche/auth/test/Outbox") {}

/**
 * Lets background fibers (recovery queues from one) run to their end: a few real milliseconds, since
 * their WebCrypto calls resolve off the fiber scheduler, whatever the test clock says.
 */
export const settle = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 20)))

/** The last code or link token sent to `to` (a phone or an address); a test fails without one. */
export const lastSecret = Effect.fn(function* (to: string) {
  yield* settle
  const outbox = yield* Outbox
  const jobs = yield* Ref.get(outbox.jobs)
  for (const job of [...jobs].reverse()) {
    if (job._tag === "Sms" && job.message.to === to) return job.message.code
    if (job._tag === "Mail" && job.letter.to === to) {
      const secret = job.letter.token ?? job.letter.code
      if (secret !== undefined) return secret
    }
  }
  return yield* Effect.die(`nothing was sent to ${to}`)
})

export const outboxLayer: Layer.Layer<Outbox | DeliveryQueue.DeliveryQueue> = Layer.effect(
  DeliveryQueue.DeliveryQueue,
  Effect.gen(function* () {
    const outbox = yield* Outbox
    return DeliveryQueue.DeliveryQueue.of({
      enqueue: (job) =>
        Effect.flatMap(Ref.get(outbox.down), (down) =>
          down
            ? Effect.fail(new DeliveryQueue.DeliveryUnavailable({ reason: "test" }))
            : Ref.update(outbox.jobs, (jobs) => [...jobs, job])
        ),
      flush: Effect.void
    })
  })
).pipe(
  Layer.provideMerge(
    Layer.effect(Outbox, Effect.all({ jobs: Ref.make<ReadonlyArray<DeliveryQueue.Job>>([]), down: Ref.make(false) }))
  )
)
