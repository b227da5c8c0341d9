/**
 * Every kind of opaque token the service hands out declares its prefix here, in one place, so that
 * no two kinds can collide and none can be mistaken for another by its first characters (the test
 * next to this file checks that prefixes are distinct, that none is a prefix of another, and that
 * none begins with "bot" or "bearer" in any letter case: bot libraries strip such a leading word
 * from the token they are given). `OpaqueSecrets.mint` takes only these prefixes.
 *
 * A new kind of token adds its line here first (and its domain reads it from here).
 */

export const TOKEN_PREFIXES = {
  // accounts (@veche/auth Tokens)
  /** A session's access token (`Authorization: Bearer …`). */
  access: "vat_",
  /** A session's refresh token. */
  refresh: "vrt_",
  /** The secret inside an e-mail link (address confirmation, password change). */
  emailLink: "vlk_",
  /** The secret of a data-export download link. */
  exportDownload: "vdl_",

  // developer applications (@veche/applications ApplicationSecrets)
  /** A bot's token (`Authorization: Bot …`). */
  bot: "vbt_",
  /** An application's OAuth client secret. */
  clientSecret: "vcs_",

  // OAuth 2.0 sign-in (@veche/oauth OAuthSecrets)
  /** An OAuth access token (`Authorization: Bearer …`, only `GET /users/@me`). */
  oauthAccess: "voa_",
  /** An OAuth refresh token. */
  oauthRefresh: "vor_",
  /** An OAuth authorization code (single use, 10 minutes). */
  oauthCode: "voc_"
} as const

export type TokenKind = keyof typeof TOKEN_PREFIXES
export type TokenPrefix = (typeof TOKEN_PREFIXES)[TokenKind]
