/**
 * The accounts domain's part of a user's personal data: the phone, e-mail and birth date, whether
 * two-factor authentication is on, and the signed-in devices in the export (never a secret: no
 * password hash, TOTP secret, backup codes, tokens or link secrets); on erasure every session
 * ended, 2FA turned off, pending e-mail links burnt, and the phone, e-mail and password erased.
 * Every step can run twice.
 */
import { type Snowflake, Spans, Tallies } from "@veche/platform"
import { PersonalData } from "@veche/users"
import { DateTime, Effect, type Layer, Option } from "effect"
import { AccountsRepo, ERASED } from "./AccountsRepo.ts"
import { EmailLinksRepo } from "./EmailLinksRepo.ts"
import { Mfa } from "./Mfa.ts"
import { MfaRepo } from "./MfaRepo.ts"
import { Sessions } from "./Sessions.ts"

export const layer: Layer.Layer<
  never,
  never,
  PersonalData.PersonalData | AccountsRepo | MfaRepo | Mfa | EmailLinksRepo | Sessions
> = PersonalData.register(
  Effect.gen(function* () {
    const accounts = yield* AccountsRepo
    const mfaRepo = yield* MfaRepo
    const mfa = yield* Mfa
    const links = yield* EmailLinksRepo
    const tallies = yield* Tallies.Tallies
    const sessions = yield* Sessions

    const exportOf = Spans.fn("AccountPersonalData.export")(function* (userId: Snowflake.Snowflake) {
      const account = yield* accounts.findByUserId(userId)
      const live = yield* sessions.list(userId)
      const security = yield* mfa.status(userId)
      const credentials = Option.map(account, (found) => found.credentials)
      const sections: ReadonlyArray<PersonalData.Section> = [
        {
          file: "account.json",
          about: "your account (name, phone, e-mail, birth date, when it was made)",
          content: {
            phone: Option.getOrNull(Option.flatMap(credentials, (c) => Option.fromNullishOr(c.phone))),
            email: Option.getOrNull(Option.flatMap(credentials, (c) => Option.fromNullishOr(c.email))),
            email_verified: Option.exists(credentials, (c) => c.emailVerified),
            date_of_birth: Option.getOrNull(Option.map(credentials, (c) => c.dateOfBirth))
          }
        },
        {
          file: "security.json",
          about: "whether two-factor authentication is on, and how many backup codes are left",
          content: { totp_enabled: security.totpEnabled, backup_codes_left: security.backupCodesLeft }
        },
        {
          file: "sessions.json",
          about: "the devices signed in to your account",
          content: live.map((session) => ({
            id: session.id,
            created_at: DateTime.formatIso(session.createdAt),
            last_used_at: DateTime.formatIso(session.lastUsedAt),
            client_info: session.client
          }))
        }
      ]
      return sections
    })

    const erase = Spans.fn("AccountPersonalData.erase")(function* (userId: Snowflake.Snowflake) {
      const now = yield* DateTime.now
      yield* sessions.endAll(userId)
      yield* mfaRepo.disable(userId)
      yield* links.burnFor(userId, "bind", now)
      yield* links.burnFor(userId, "recover", now)
      const before = yield* accounts.findByUserId(userId)
      yield* accounts.erase(userId, now)
      // The statistics: one account fewer, one more deleted (once: an erased account has no password).
      if (Option.isSome(before) && before.value.credentials.passwordHash !== ERASED) {
        yield* tallies.gauge("users", -1)
        yield* tallies.gauge("users_deleted", 1)
        if (before.value.credentials.email !== null) yield* tallies.gauge("with_email", -1)
      }
    })

    return { name: "auth", level: PersonalData.AUTH, export: exportOf, erase }
  })
)
