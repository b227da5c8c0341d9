/**
 * An integrator's host: Veche's REST routes served by their own Node process, with their own answer
 * to "whose bot token is this?" (one bot token from the environment), user accounts and sessions in
 * memory, and the dev providers (SMS to the console and the outbox, any captcha). No database.
 * Run: `./dev node examples/custom-host/src/main.ts`, then
 *   curl -H "Authorization: Bot $EXAMPLE_BOT_TOKEN" http://127.0.0.1:8090/api/v10/gateway/bot
 */

import { createServer } from "node:http"
import { NodeCrypto, NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Argon2PasswordHasher } from "@veche/argon2"
import {
  AccountSnapshot,
  AccountsRepo,
  AuthFlows,
  BlocksRepo,
  EmailLinksRepo,
  MfaRepo,
  Moderation,
  RestrictionsRepo,
  Sessions,
  SessionsConfig,
  SessionsRepo,
  Staff,
  Tokens,
  VerificationCodes,
  VerificationsRepo,
  WebLinks
} from "@veche/auth"
import { AccountStandings, GuildsDomain, GuildsRepo } from "@veche/guilds"
import { MediaStorage, ProfileImages } from "@veche/media"
import { OtplibTotpCodes } from "@veche/otplib"
import {
  Captcha,
  CarrierCheck,
  DeliveryQueue,
  DevOutbox,
  EventBus,
  GeoIp,
  Mailer,
  SecretBox,
  ServiceInfo,
  SmsSender,
  Snowflake
} from "@veche/platform"
import { PrivacyDomain } from "@veche/privacy"
import { QuotaLimiter, RateLimitStore, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { Authenticator, GatewayUrl, HttpEdge, RestApp, SessionAuthenticator } from "@veche/rest"
import { SharpImageCodec } from "@veche/sharp"
import { PersonalData, ProfilesRepo, RelationshipsRepo, UserPersonalData, UsersRepo } from "@veche/users"
import { FflateZipWriter } from "@veche/zip"
import { Effect, Layer, Redacted } from "effect"
import { HttpRouter } from "effect/http"

const botToken = process.env.EXAMPLE_BOT_TOKEN ?? "example.bot-token"
const botId = Snowflake.Snowflake.make("1311000000000000042")

// The port the Authorization middleware asks: our bot token here, user sessions otherwise.
const OwnTokens = Layer.effect(
  Authenticator.Authenticator,
  Effect.gen(function* () {
    const users = yield* Authenticator.Authenticator
    return Authenticator.Authenticator.of({
      authenticate: (scheme, token) =>
        scheme === "Bot"
          ? Redacted.value(token) === botToken
            ? Effect.succeed({ kind: "bot", userId: botId })
            : Effect.fail(new Authenticator.TokenInvalid())
          : users.authenticate(scheme, token)
    })
  })
).pipe(Layer.provide(SessionAuthenticator.layer))

// Each layer below is built once and shared by everything that needs it.
const counters = RateLimitStore.layerMemory
const base = Layer.mergeAll(
  UsersRepo.UsersRepo.layerMemory,
  ProfilesRepo.ProfilesRepo.layerMemory,
  RelationshipsRepo.RelationshipsRepo.layerMemory,
  EventBus.EventBus.layerMemory,
  DevOutbox.DevOutbox.layerMemory,
  // No image storage in this example: avatar uploads answer 501.
  ProfileImages.ProfileImages.layer().pipe(
    Layer.provide(SharpImageCodec.layer),
    Layer.provideMerge(MediaStorage.MediaStorage.layerNone)
  ),
  // No country data in this example: every address is "unknown", so e-mail registration is offered.
  GeoIp.GeoIp.layerTest({}),
  Snowflake.SnowflakeGenerator.layer(1),
  // every domain registers its part of a user's personal data here (deletion and export read them)
  PersonalData.PersonalData.layer,
  QuotaLimiter.QuotaLimiter.layer().pipe(Layer.provide(counters)),
  RouteLimiter.RouteLimiter.layer.pipe(Layer.provide(RouteBuckets.RouteBuckets.layer()), Layer.provide(counters))
)
const tokens = Tokens.Tokens.layer.pipe(Layer.provide(NodeCrypto.layer))
const sessions = Sessions.Sessions.layer.pipe(
  // sessions read password changes from the accounts below (the same layer, built once)
  Layer.provide(SessionsRepo.SessionsRepo.layerMemory.pipe(Layer.provide(AccountsRepo.AccountsRepo.layerMemory))),
  Layer.provideMerge(BlocksRepo.BlocksRepo.layerMemory),
  Layer.provide(SessionsConfig.SessionsConfig.layer())
)
// Letters and SMS go through an in-memory queue to the console adapters (and the dev outbox).
const delivery = DeliveryQueue.DeliveryQueue.layerMemory.pipe(
  Layer.provide(Layer.merge(SmsSender.SmsSender.layerConsole, Mailer.Mailer.layerConsole))
)
const registration = AuthFlows.layer.pipe(
  Layer.provide(
    Layer.mergeAll(
      VerificationsRepo.VerificationsRepo.layerMemory,
      VerificationCodes.VerificationCodes.layerConfig.pipe(Layer.provide(NodeCrypto.layer)),
      SecretBox.SecretBox.layerEphemeral,
      Argon2PasswordHasher.layer(),
      OtplibTotpCodes.layer,
      Captcha.Captcha.layerDev,
      SmsSender.SmsSender.layerConsole,
      WebLinks.WebLinks.layer("http://127.0.0.1:8090"),
      CarrierCheck.CarrierCheck.layerNone
    )
  )
)
const domain = Layer.mergeAll(
  OwnTokens,
  ServiceInfo.ServiceInfo.layer({ version: "example", env: "dev" }),
  Layer.orDie(GatewayUrl.GatewayUrl.layer("ws://127.0.0.1:8090/gateway"))
).pipe(
  // Account deletion and data exports in memory, over every domain's part of a user's data.
  Layer.provideMerge(
    Layer.merge(
      PrivacyDomain.layer.pipe(
        Layer.provide(Layer.merge(PrivacyDomain.layerMemoryRepositories, FflateZipWriter.layer))
      ),
      UserPersonalData.layer
    )
  ),
  Layer.provideMerge(Layer.merge(registration, AccountSnapshot.AccountSnapshots.layerFromRepos)),
  // Guilds in memory (they also tell the accounts domain which servers a user is in).
  Layer.provideMerge(
    GuildsDomain.layer.pipe(
      Layer.provide(AccountStandings.AccountStandings.layerFromAccounts),
      Layer.provideMerge(GuildsRepo.GuildsRepo.layerMemory),
      Layer.provide(NodeCrypto.layer)
    )
  ),
  // No staff in this example: the moderation routes answer 403 to everyone.
  Layer.provideMerge(
    Moderation.Moderation.layer.pipe(
      Layer.provide(Staff.Staff.layer({ userIds: [], phones: [] })),
      Layer.provideMerge(RestrictionsRepo.RestrictionsRepo.layerMemory)
    )
  ),
  Layer.provideMerge(delivery),
  Layer.provideMerge(
    Layer.mergeAll(
      AccountsRepo.AccountsRepo.layerMemory,
      MfaRepo.MfaRepo.layerMemory,
      EmailLinksRepo.EmailLinksRepo.layerMemory
    )
  ),
  Layer.provideMerge(sessions),
  Layer.provideMerge(tokens),
  Layer.provideMerge(base)
)

const app = HttpRouter.serve(RestApp.routes, {
  disableLogger: true,
  middleware: HttpEdge.middleware({ trustedProxies: [], accessLog: true })
}).pipe(Layer.provide(domain), Layer.provide(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 8090 })))

Layer.launch(app).pipe(NodeRuntime.runMain)
