/**
 * The consent step of the code flow: what the consent page shows a logged-in user (the application,
 * the scopes, for `bot` the guilds they may add the bot to) and their answer. Approving `identify`
 * issues an authorization code (256 bits, stored hashed, ten minutes, bound to the client, redirect
 * URI, user, scopes and PKCE challenge); approving `bot` adds the bot to the chosen guild through
 * the guilds domain (`Guilds.addBot`: Manage Guild, a managed role). Every refusal happens before
 * anything is redirected: a bad client or redirect URI is an error, never a redirect.
 */
import { type Application, Applications, type ApplicationsErrors } from "@veche/applications"
import { Guilds, type GuildsErrors, Permissions } from "@veche/guilds"
import { type Snowflake, Spans } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Redacted } from "effect"
import { ConsentPages } from "./ConsentPages.ts"
import { GuildRequired, InvalidRedirectUri, PrivateBot } from "./OAuthErrors.ts"
import { CODE_MINUTES, type Scope } from "./OAuthGrant.ts"
import { OAuthRepo } from "./OAuthRepo.ts"
import { OAuthSecrets } from "./OAuthSecrets.ts"

/** The authorization request (the consent page's query), its syntax already checked. */
export interface Request {
  readonly clientId: Snowflake.Snowflake
  readonly scopes: ReadonlyArray<Scope>
  readonly redirectUri?: string | undefined
  readonly state?: string | undefined
  /** PKCE S256 challenge (the only method accepted). */
  readonly codeChallenge?: string | undefined
}

export interface Described {
  readonly application: Application.Application
  readonly scopes: ReadonlyArray<Scope>
  readonly redirectUri: string | null
  /** The user has a live grant for this application already. */
  readonly authorized: boolean
  /** For scope `bot`: the guilds where the user may add it (Manage Guild), with their permissions. */
  readonly guilds?: ReadonlyArray<Guilds.Listed> | undefined
}

export interface Decision {
  readonly authorize: boolean
  readonly guildId?: Snowflake.Snowflake | undefined
  /** The bot's permissions asked for; it gets only those the user holds there. */
  readonly permissions?: bigint | undefined
}

export type RequestError = ApplicationsErrors.NoSuchApplication | InvalidRedirectUri

export type DecisionError =
  | RequestError
  | GuildRequired
  | PrivateBot
  | Guilds.Access
  | GuildsErrors.MissingPermission
  | GuildsErrors.BannedFromGuild
  | GuildsErrors.RoleLimitReached

/**
 * Whether approving gives the client a code: for `identify`, and for `bot` when the application asks
 * for the full code grant (`bot_require_code_grant`: the bot's adder comes back to it with a code).
 */
const issuesCode = (application: Application.Application, request: Request): boolean =>
  request.scopes.includes("identify") || (request.scopes.includes("bot") && application.botRequireCodeGrant)

/** More guilds than anyone may be in: the whole list in one page. */
const ALL_GUILDS = 1000

export class Authorizations extends Context.Service<
  Authorizations,
  {
    readonly describe: (
      userId: Snowflake.Snowflake,
      request: Request
    ) => Effect.Effect<Described, RequestError | PrivateBot>
    /** Where the browser goes next (the `location` the consent page navigates to). */
    readonly decide: (
      userId: Snowflake.Snowflake,
      request: Request,
      decision: Decision
    ) => Effect.Effect<string, DecisionError>
  }
>()("@veche/oauth/Authorizations") {
  static readonly layer: Layer.Layer<
    Authorizations,
    never,
    OAuthRepo | OAuthSecrets | Applications.Applications | Guilds.Guilds | ConsentPages
  > = Layer.effect(
    Authorizations,
    Effect.gen(function* () {
      const repo = yield* OAuthRepo
      const secrets = yield* OAuthSecrets
      const applications = yield* Applications.Applications
      const guilds = yield* Guilds.Guilds
      const pages = yield* ConsentPages

      /** The application, once the redirect URI is one it registered, byte for byte (the port too). */
      const check = Effect.fnUntraced(function* (request: Request) {
        const application = yield* applications.find(request.clientId)
        const redirectUri = request.redirectUri
        if (redirectUri === undefined) {
          // Only adding a bot may do without (its browser ends on the front end's own page), unless
          // the application wants its bot added through the full code grant.
          if (issuesCode(application, request)) return yield* new InvalidRedirectUri()
        } else if (!application.redirectUris.includes(redirectUri)) {
          return yield* new InvalidRedirectUri()
        }
        return application
      })

      const manageable = (userId: Snowflake.Snowflake) =>
        Effect.map(guilds.mine({ userId, bot: false }, { limit: ALL_GUILDS }), (listed) =>
          listed.filter((entry) => Permissions.has(entry.permissions, Permissions.Flags.ManageGuild))
        )

      const describe = Spans.fn("Authorizations.describe")(function* (userId: Snowflake.Snowflake, request: Request) {
        const application = yield* check(request)
        // Said as the page opens, not after a server and permissions were chosen.
        if (request.scopes.includes("bot") && !application.botPublic && application.ownerId !== userId)
          return yield* new PrivateBot()
        return {
          application,
          scopes: request.scopes,
          redirectUri: request.redirectUri ?? null,
          authorized: yield* repo.hasLiveGrant(application.id, userId),
          ...(request.scopes.includes("bot") ? { guilds: yield* manageable(userId) } : {})
        }
      })

      const withQuery = (base: string, params: ReadonlyArray<readonly [string, string | undefined]>) => {
        const url = new URL(base)
        for (const [name, value] of params) if (value !== undefined) url.searchParams.append(name, value)
        return url.toString()
      }

      const addBot = Effect.fnUntraced(function* (
        userId: Snowflake.Snowflake,
        application: Application.Application,
        decision: Decision
      ) {
        const guildId = decision.guildId
        if (guildId === undefined) return yield* new GuildRequired()
        if (!application.botPublic && application.ownerId !== userId) return yield* new PrivateBot()
        // The bot gets what was asked for and the user holds there, never more.
        const place = (yield* guilds.mine({ userId, bot: false }, { limit: ALL_GUILDS })).find(
          (entry) => entry.guild.id === guildId
        )
        const granted = (decision.permissions ?? 0n) & (place?.permissions ?? 0n)
        yield* guilds.addBot(
          { userId, bot: false },
          guildId,
          { userId: application.id, name: application.name },
          granted
        )
        return { guildId, granted }
      })

      const decide = Spans.fn("Authorizations.decide")(function* (
        userId: Snowflake.Snowflake,
        request: Request,
        decision: Decision
      ) {
        const application = yield* check(request)
        const redirectUri = request.redirectUri
        if (!decision.authorize) {
          return redirectUri === undefined
            ? withQuery(pages.authorized(), [["error", "access_denied"]])
            : withQuery(redirectUri, [
                ["error", "access_denied"],
                ["state", request.state]
              ])
        }
        const bot = request.scopes.includes("bot") ? yield* addBot(userId, application, decision) : undefined
        if (issuesCode(application, request) && redirectUri !== undefined) {
          const minted = yield* secrets.mint("code")
          const now = yield* DateTime.now
          yield* repo.insertCode({
            digest: minted.digest,
            applicationId: application.id,
            userId,
            redirectUri,
            scopes: request.scopes,
            codeChallenge: request.codeChallenge ?? null,
            createdAt: now,
            expiresAt: DateTime.add(now, { minutes: CODE_MINUTES })
          })
          return withQuery(redirectUri, [
            ["code", Redacted.value(minted.token)],
            ["state", request.state]
          ])
        }
        if (redirectUri === undefined) return pages.authorized()
        return withQuery(redirectUri, [
          ["guild_id", bot?.guildId],
          ["permissions", bot === undefined ? undefined : Permissions.toWire(bot.granted)],
          ["state", request.state]
        ])
      })

      return Authorizations.of({ describe, decide })
    })
  )
}
