/** Why a token was not accepted, as data. */
import { Schema } from "effect"

/** Unknown, revoked, of the wrong kind, or the session ended (answers 401 50014). */
export class TokenInvalid extends Schema.TaggedError<TokenInvalid>()("TokenInvalid", {}) {}

/** An access token past its lifetime: the client should refresh (answers 401 40001). */
export class TokenExpired extends Schema.TaggedError<TokenExpired>()("TokenExpired", {}) {}

/** A refresh token that cannot be used: unknown, spent, expired, or its session ended. */
export class RefreshRejected extends Schema.TaggedError<RefreshRejected>()("RefreshRejected", {}) {}

/** The account is blocked by the platform (answers 403 40007); `message` gives reason and term. */
export class AccountBlocked extends Schema.TaggedError<AccountBlocked>()("AccountBlocked", {
  message: Schema.String
}) {}
