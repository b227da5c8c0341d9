/** The Auth group (sessions part): refresh, logout, the session list. Pure data. */
import { BotsCannotUseThisEndpoint, InvalidAuthenticationToken } from "@veche/errors"
import { Snowflake } from "@veche/platform"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"

/** architecture.md §6: the pair every login, registration, refresh and recovery answers. */
export const TokenPair = Schema.Struct({
  access_token: Schema.String,
  refresh_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  /** seconds */
  expires_in: Schema.Int,
  user_id: Snowflake.Snowflake
})

export const SessionView = Schema.Struct({
  id: Snowflake.Snowflake,
  /** The session the request was made with. */
  current: Schema.Boolean,
  created_at: Schema.String,
  last_used_at: Schema.String,
  client_info: Schema.Struct({
    user_agent: Schema.NullOr(Schema.String),
    ip: Schema.NullOr(Schema.String),
    country: Schema.NullOr(Schema.String)
  })
})

export const RefreshBody = Schema.Struct({
  refresh_token: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(512)))
})

const NoContent = HttpApiSchema.NoContent

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("refresh", "/auth/refresh", {
      payload: RefreshBody,
      success: TokenPair,
      error: InvalidAuthenticationToken
    }),
    HttpApiEndpoint.post("logout", "/auth/logout", { success: NoContent, error: BotsCannotUseThisEndpoint }).middleware(
      Authorization
    ),
    HttpApiEndpoint.get("sessions", "/auth/sessions", {
      success: Schema.Array(SessionView),
      error: BotsCannotUseThisEndpoint
    }).middleware(Authorization),
    HttpApiEndpoint.delete("endOtherSessions", "/auth/sessions", {
      success: NoContent,
      error: BotsCannotUseThisEndpoint
    }).middleware(Authorization)
  )
  .annotate(OpenApi.Description, "Registration, login, tokens, sessions, two-factor authentication and recovery.") {}
