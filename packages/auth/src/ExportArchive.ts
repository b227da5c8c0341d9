/**
 * What a data export contains: everything the platform holds about the user, as JSON files in a
 * ZIP (packed by the host's `ZipWriter`), and nothing secret — no password hash, TOTP secret,
 * backup codes, tokens or link secrets. Messages and server contents join when those domains exist.
 */
import type { Snowflake } from "@veche/platform"
import { Memberships, ProfilesRepo, UsersRepo } from "@veche/users"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AccountsRepo } from "./AccountsRepo.ts"
import { Mfa } from "./Mfa.ts"
import { Sessions } from "./Sessions.ts"
import { ZipWriter } from "./ZipWriter.ts"

const utf8 = (text: string) => new TextEncoder().encode(text)
const json = (value: unknown) => utf8(`${JSON.stringify(value, null, 2)}\n`)

const README = `This archive holds what Veche keeps about your account, as JSON:
account.json  your account (name, phone, e-mail, birth date, when it was made)
profile.json  your profile and settings
security.json whether two-factor authentication is on, and how many backup codes are left
sessions.json the devices signed in to your account
servers.json  the servers you are a member of
Secrets (your password, two-factor secret, codes and tokens) are never exported.
`

export class ExportArchive extends Context.Service<
  ExportArchive,
  { readonly build: (userId: Snowflake.Snowflake) => Effect.Effect<Uint8Array> }
>()("@veche/auth/ExportArchive") {
  static readonly layer: Layer.Layer<
    ExportArchive,
    never,
    | UsersRepo.UsersRepo
    | AccountsRepo
    | ProfilesRepo.ProfilesRepo
    | Sessions
    | Mfa
    | Memberships.Memberships
    | ZipWriter
  > = Layer.effect(
    ExportArchive,
    Effect.gen(function* () {
      const users = yield* UsersRepo.UsersRepo
      const accounts = yield* AccountsRepo
      const profiles = yield* ProfilesRepo.ProfilesRepo
      const sessions = yield* Sessions
      const mfa = yield* Mfa
      const memberships = yield* Memberships.Memberships
      const zipWriter = yield* ZipWriter

      const build = Effect.fn("ExportArchive.build")(function* (userId: Snowflake.Snowflake) {
        const user = yield* users.findById(userId)
        const account = yield* accounts.findByUserId(userId)
        const profile = yield* profiles.get(userId)
        const live = yield* sessions.list(userId)
        const security = yield* mfa.status(userId)
        const guilds = yield* memberships.guildsOf(userId)
        const credentials = Option.map(account, (found) => found.credentials)
        const files: Record<string, Uint8Array> = {
          "README.txt": utf8(README),
          "account.json": json({
            id: userId,
            username: Option.getOrNull(Option.map(user, (u) => u.username)),
            display_name: Option.getOrNull(Option.flatMap(user, (u) => Option.fromNullishOr(u.displayName))),
            created_at: Option.getOrNull(Option.map(user, (u) => DateTime.formatIso(u.createdAt))),
            phone: Option.getOrNull(Option.flatMap(credentials, (c) => Option.fromNullishOr(c.phone))),
            email: Option.getOrNull(Option.flatMap(credentials, (c) => Option.fromNullishOr(c.email))),
            email_verified: Option.exists(credentials, (c) => c.emailVerified),
            date_of_birth: Option.getOrNull(Option.map(credentials, (c) => c.dateOfBirth))
          }),
          "profile.json": json({
            bio: profile.bio,
            avatar: profile.avatar,
            banner: profile.banner,
            settings: {
              status: profile.status,
              custom_status: profile.customStatus,
              theme: profile.theme,
              locale: profile.locale
            },
            guild_order: profile.guildOrder
          }),
          "security.json": json({ totp_enabled: security.totpEnabled, backup_codes_left: security.backupCodesLeft }),
          "sessions.json": json(
            live.map((session) => ({
              id: session.id,
              created_at: DateTime.formatIso(session.createdAt),
              last_used_at: DateTime.formatIso(session.lastUsedAt),
              client_info: session.client
            }))
          ),
          "servers.json": json(guilds)
        }
        return yield* zipWriter.zip(Object.entries(files).map(([name, bytes]) => ({ name, bytes })))
      })

      return ExportArchive.of({ build })
    })
  )
}
