/**
 * Who is calling: the identity the Authorization middleware puts in the request context, and the
 * route policies the spec states in terms of it (users only, bots only).
 */
import { BotsCannotUseThisEndpoint, OnlyBotsCanUseThisEndpoint } from "@veche/errors"
import type * as Snowflake from "@veche/platform/Snowflake"
import { Context, Effect } from "effect"

export interface Principal {
  /** `user` for `Bearer` access tokens (and OAuth tokens), `bot` for `Bot` tokens. */
  readonly kind: "user" | "bot"
  readonly userId: Snowflake.Snowflake
  /** The login session a user's access token belongs to (absent for bots and OAuth tokens). */
  readonly sessionId?: Snowflake.Snowflake | undefined
  /**
   * Present when the credential is an OAuth access token: the application the user granted it to
   * and the scopes. The Authorization middleware lets such a principal through only on routes
   * annotated `AdmitsOAuthTokens` (GET /users/@me).
   */
  readonly oauth?: { readonly applicationId: Snowflake.Snowflake; readonly scopes: ReadonlyArray<string> } | undefined
}

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("@veche/api/CurrentPrincipal") {}

/** Routes the spec marks "users only" refuse bots with 20001. */
export const requireUser: Effect.Effect<Principal, BotsCannotUseThisEndpoint, CurrentPrincipal> = Effect.flatMap(
  Effect.service(CurrentPrincipal),
  (principal) => (principal.kind === "user" ? Effect.succeed(principal) : Effect.fail(new BotsCannotUseThisEndpoint()))
)

/** Bot-only routes (GET /gateway/bot, /applications/@me, /oauth2/@me) refuse others with 20002. */
export const requireBot: Effect.Effect<Principal, OnlyBotsCanUseThisEndpoint, CurrentPrincipal> = Effect.flatMap(
  Effect.service(CurrentPrincipal),
  (principal) => (principal.kind === "bot" ? Effect.succeed(principal) : Effect.fail(new OnlyBotsCanUseThisEndpoint()))
)

/** The caller as the guilds domain sees them. */
export const currentActor: Effect.Effect<
  { readonly userId: Snowflake.Snowflake; readonly bot: boolean },
  never,
  CurrentPrincipal
> = Effect.map(Effect.service(CurrentPrincipal), (principal) => ({
  userId: principal.userId,
  bot: principal.kind === "bot"
}))
