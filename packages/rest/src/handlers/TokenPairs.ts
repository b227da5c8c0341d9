/** A session's token pair as the wire carries it (architecture.md §6). */
import type { Sessions } from "@veche/auth"
import { Redacted } from "effect"

export const toWire = (pair: Sessions.TokenPair) => ({
  access_token: Redacted.value(pair.accessToken),
  refresh_token: Redacted.value(pair.refreshToken),
  token_type: "Bearer" as const,
  expires_in: pair.expiresIn,
  user_id: pair.userId
})
