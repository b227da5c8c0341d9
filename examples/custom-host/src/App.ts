/**
 * An integrator's host: Veche's REST routes in their own Effect HTTP server, with their own answer
 * to "whose bot token is this?" (one bot token they were given), every domain from `@veche/kit`
 * on memory repositories, and the dev providers (SMS to the console and the outbox, any captcha).
 * No database. `layer` needs only an HTTP server: main.ts gives it Node's, the test a random port.
 */
import { NodeCrypto } from "@effect/platform-node"
import { Argon2PasswordHasher } from "@veche/argon2"
import { SessionsConfig, VerificationCodes, WebLinks } from "@veche/auth"
import { GatewayConfig } from "@veche/gateway"
import { GifsConfig } from "@veche/gifs"
import { Veche } from "@veche/kit"
import { MediaStorage } from "@veche/media"
import { Staff } from "@veche/moderation"
import { OtplibTotpCodes } from "@veche/otplib"
import { GeoIp, SecretBox, ServiceInfo, Snowflake } from "@veche/platform"
import { Authenticator, GatewayUrl, HttpEdge, RestApp } from "@veche/rest"
import { SharpImageCodec } from "@veche/sharp"
import { FflateZipWriter } from "@veche/zip"
import { Effect, type FileSystem, Layer, type Path, Redacted } from "effect"
import { type Etag, type HttpPlatform, HttpRouter, type HttpServer } from "effect/http"

export interface Options {
  /** The one bot token this host accepts (`Authorization: Bot <token>`). */
  readonly botToken: string
  /** Where this host is reached: links in letters point here. */
  readonly webUrl: string
}

export const BOT_ID = Snowflake.Snowflake.make("1311000000000000042")

/** The port the Authorization middleware asks: our bot token here, Veche's user sessions otherwise. */
const ownTokens = (botToken: string) =>
  Layer.effect(
    Authenticator.Authenticator,
    Effect.gen(function* () {
      const users = yield* Authenticator.Authenticator
      return Authenticator.Authenticator.of({
        authenticate: (scheme, token) =>
          scheme !== "Bot"
            ? users.authenticate(scheme, token)
            : Redacted.value(token) === botToken
              ? Effect.succeed({ kind: "bot", userId: BOT_ID })
              : Effect.fail(new Authenticator.TokenInvalid())
      })
    })
  )

// The wiring: settings, providers and storage chosen here; every domain from the kit.
export const layer = (
  options: Options
): Layer.Layer<
  never,
  never,
  // an HTTP server, and the file serving of the docs page (Node's server layer offers both)
  HttpServer.HttpServer | HttpPlatform.HttpPlatform | Etag.Generator | FileSystem.FileSystem | Path.Path
> => {
  const adapters = Layer.mergeAll(
    ServiceInfo.ServiceInfo.layer({ version: "example", env: "dev" }),
    Layer.orDie(GatewayUrl.GatewayUrl.layer(`${options.webUrl.replace(/^http/, "ws")}/gateway`)),
    GatewayConfig.GatewayConfig.layer({ resumeGatewayUrl: `${options.webUrl.replace(/^http/, "ws")}/gateway` }),
    SessionsConfig.SessionsConfig.layer(),
    // No staff in this example: the moderation routes answer 403 to everyone.
    Staff.StaffConfig.layer({ userIds: [], phones: [] }),
    WebLinks.WebLinks.layer(options.webUrl),
    Layer.orDie(VerificationCodes.VerificationCodes.layerConfig),
    SecretBox.SecretBox.layerEphemeral,
    Snowflake.SnowflakeGenerator.layer(1),
    // GIFs from the dev fixtures (Veche.layerDevProviders); a customer-id key made for this process
    Layer.orDie(GifsConfig.GifsConfig.layerConfig),
    // No country data: every address is "unknown", so e-mail registration is offered.
    GeoIp.GeoIp.layerTest({}),
    // No image storage: avatar uploads answer 501.
    MediaStorage.MediaStorage.layerNone,
    SharpImageCodec.layer,
    Argon2PasswordHasher.layer(),
    OtplibTotpCodes.layer,
    FflateZipWriter.layer,
    Veche.layerDevProviders
  ).pipe(Layer.provideMerge(NodeCrypto.layer), Layer.provideMerge(Veche.layerMemoryRepositories))
  const domain = ownTokens(options.botToken).pipe(
    Layer.provideMerge(Layer.orDie(Veche.layer)),
    Layer.provideMerge(adapters)
  )
  return HttpRouter.serve(RestApp.routes, {
    disableLogger: true,
    middleware: HttpEdge.middleware({ trustedProxies: [], accessLog: true })
  }).pipe(Layer.provide(domain))
}
