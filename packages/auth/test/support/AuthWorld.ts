/**
 * The account services over memory repositories and the fakes of `Fakes.ts`, on the test clock:
 * what a service-level test provides with `it.layer`/`Effect.provide` instead of the HTTP host.
 * Each test builds its own world, so counters and accounts never leak between tests.
 */
import { CarrierCheck, DevOutbox, GeoIp, SecretBox, SmsSender, Snowflake } from "@veche/platform"
import { QuotaLimiter, RateLimitStore } from "@veche/ratelimit"
import { ProfilesRepo, UserRecords, UsersDomain, UsersRepo } from "@veche/users"
import { DateTime, Effect, Layer, Redacted } from "effect"
import { Digest, SecureRandom } from "effect/crypto"
import { TestClock } from "effect/testing"
import { AccountBlocks } from "../../src/AccountBlocks.ts"
import { AccountsRepo } from "../../src/AccountsRepo.ts"
import { CaptchaGate } from "../../src/CaptchaGate.ts"
import { CarrierChecks } from "../../src/CarrierChecks.ts"
import { CodeChecks } from "../../src/CodeChecks.ts"
import { EmailBinding } from "../../src/EmailBinding.ts"
import { EmailConfirmation } from "../../src/EmailConfirmation.ts"
import { EmailLinksRepo } from "../../src/EmailLinksRepo.ts"
import { Login } from "../../src/Login.ts"
import { Mfa } from "../../src/Mfa.ts"
import { MfaRepo } from "../../src/MfaRepo.ts"
import { PasswordCheck } from "../../src/PasswordCheck.ts"
import * as Phone from "../../src/Phone.ts"
import { PhoneChange } from "../../src/PhoneChange.ts"
import { Recovery } from "../../src/Recovery.ts"
import { Registration } from "../../src/Registration.ts"
import type { ClientInfo } from "../../src/Session.ts"
import { Sessions } from "../../src/Sessions.ts"
import { SessionsConfig } from "../../src/SessionsConfig.ts"
import { SessionsRepo } from "../../src/SessionsRepo.ts"
import { Tokens } from "../../src/Tokens.ts"
import { VerificationsRepo } from "../../src/VerificationsRepo.ts"
import { WebLinks } from "../../src/WebLinks.ts"
import * as Fakes from "./Fakes.ts"

/** Where the world's clock starts (the test clock otherwise starts at the epoch). */
export const START = DateTime.makeUnsafe("2026-03-01T12:00:00Z")

export const CLIENT: ClientInfo = { userAgent: "test", address: "198.51.100.7", country: null }

export const password = (value: string) => Redacted.make(value)

const repositories = Layer.mergeAll(
  SessionsRepo.layerMemory,
  VerificationsRepo.layerMemory,
  EmailLinksRepo.layerMemory,
  MfaRepo.layerMemory
).pipe(
  // blocks are the moderation domain's (above auth); here nobody is blocked
  Layer.provideMerge(Layer.merge(AccountBlocks.layerNone, AccountsRepo.layerMemory)),
  // users as everybody sees them (registration asks whether a username is taken), from the users domain
  Layer.provideMerge(Layer.merge(UsersDomain.layerDirectory, UserRecords.UserRecords.layer)),
  Layer.provideMerge(Layer.merge(UsersRepo.UsersRepo.layerMemory, ProfilesRepo.ProfilesRepo.layerMemory))
)

/** An address the country check places in Russia (e-mail registration is not offered there). */
export const RUSSIAN_ADDRESS = "77.88.55.242"

const ports = Layer.mergeAll(
  Fakes.hasherLayer,
  Fakes.captchaLayer,
  Fakes.totpLayer,
  Fakes.codesLayer,
  Fakes.outboxLayer,
  SecretBox.SecretBox.layerEphemeral,
  CarrierCheck.CarrierCheck.layerNone,
  // registration offers e-mail by country: one Russian address, everything else unknown
  GeoIp.GeoIp.layerTest({ [RUSSIAN_ADDRESS]: "RU" }),
  SmsSender.SmsSender.layerConsole.pipe(Layer.provide(DevOutbox.DevOutbox.layerMemory)),
  WebLinks.layer("https://veche.test"),
  QuotaLimiter.QuotaLimiter.layer().pipe(Layer.provide(RateLimitStore.layerMemory)),
  Tokens.layer.pipe(Layer.provide(Layer.merge(SecureRandom.layerWebCrypto, Digest.layerWebCrypto))),
  SessionsConfig.layer(),
  Snowflake.SnowflakeGenerator.layer(1)
)

const clock = Layer.effectDiscard(TestClock.setTime(DateTime.toEpochMillis(START)))

/**
 * Every account service here, with the repositories and fakes underneath also in the output so a
 * test can arrange and look (the outbox, the stores).
 */
export const layer = Layer.mergeAll(
  Registration.layer,
  Login.layer,
  Recovery.layer,
  PhoneChange.layer,
  EmailBinding.layer
).pipe(
  Layer.provideMerge(
    Layer.mergeAll(CaptchaGate.layer, EmailConfirmation.layer, CarrierChecks.layer).pipe(
      Layer.provideMerge(Mfa.layer),
      Layer.provideMerge(PasswordCheck.layer),
      Layer.provideMerge(CodeChecks.layer)
    )
  ),
  Layer.provideMerge(Sessions.layer),
  Layer.provideMerge(ports),
  Layer.provideMerge(repositories),
  Layer.provideMerge(clock)
)

/** Opens a registration for `phone` (captcha solved) and answers its id and the code sent. */
export const startRegistration = Effect.fn(function* (phone: string, address = CLIENT.address ?? "") {
  const registration = yield* Registration
  const started = yield* registration.startByPhone({
    phone: Phone.Normalised.make(phone),
    captchaToken: "solved",
    address
  })
  return { verificationId: started.verificationId, code: yield* Fakes.lastSecret(phone) }
})

/** A registered account with this phone and password; answers its first session's pair. */
export const register = Effect.fn(function* (phone: string, username: string, secret = "correct horse") {
  const { verificationId, code } = yield* startRegistration(phone)
  const registration = yield* Registration
  return yield* registration.complete(
    {
      verificationId,
      code,
      username,
      displayName: null,
      password: password(secret),
      dateOfBirth: "2000-01-01"
    },
    CLIENT
  )
})
