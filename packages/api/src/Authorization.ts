/**
 * The Authorization middleware's tag: `Authorization: Bearer <token>` for users, `Bot <token>` for
 * bots. A group whose routes all take credentials declares it once; the security schemes and the
 * 401/403 answers are part of the contract (clients decode them), the checking is `@veche/rest`'s.
 * OAuth access tokens (also `Bearer`) are accepted only on routes annotated `AdmitsOAuthTokens`;
 * everywhere else they answer exactly as an invalid token does.
 */
import { Banned, InvalidAuthenticationToken, Unauthorized } from "@veche/errors"
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import type { CurrentPrincipal } from "./Principal.ts"

export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: CurrentPrincipal }>()(
  "@veche/api/Authorization",
  {
    security: {
      bearer: HttpApiSecurity.bearer.pipe(
        HttpApiSecurity.annotate(OpenApi.Description, "A user access token: `Authorization: Bearer <token>`.")
      ),
      bot: HttpApiSecurity.http({ scheme: "Bot" }).pipe(
        HttpApiSecurity.annotate(OpenApi.Description, "A bot token: `Authorization: Bot <token>`.")
      )
    },
    error: [Unauthorized, InvalidAuthenticationToken, Banned],
    requiredForClient: true
  }
) {}

/**
 * An endpoint annotation: this route also takes OAuth access tokens granted this scope (the spec:
 * only GET /users/@me, with `identify`). Read by the middleware only when the credential is an
 * OAuth token, so other requests pay nothing for it; unset, the route takes none.
 */
export const AdmitsOAuthTokens: Context.Reference<string | undefined> = Context.Reference<string | undefined>(
  "@veche/api/AdmitsOAuthTokens",
  { defaultValue: () => undefined }
)

/**
 * An endpoint annotation: the route shows the caller's own account (GET /users/@me), so the
 * middleware asks the token's lookup to read that account too (one database round trip for the
 * whole route where the store can). Read once per endpoint, when the routes are built.
 */
export const ReadsCurrentUser: Context.Reference<boolean> = Context.Reference<boolean>("@veche/api/ReadsCurrentUser", {
  defaultValue: () => false
})
