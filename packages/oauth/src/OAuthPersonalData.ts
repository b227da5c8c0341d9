/**
 * The OAuth provider's part of a user's personal data (the users domain's PersonalData port): the
 * applications the user has granted access (never a token) in the export, and on erasure every
 * grant of theirs ends with its tokens, and their unredeemed codes with it. Above the applications
 * in the erasure order, so grants end before the applications they name go.
 */
import type { Snowflake } from "@veche/platform"
import { PersonalData } from "@veche/users"
import { DateTime, Effect, type Layer } from "effect"
import { OAuthRepo } from "./OAuthRepo.ts"

/** Above applications (guilds + 10), the domain it builds on. */
export const LEVEL = PersonalData.GUILDS + 20

export const layer: Layer.Layer<never, never, PersonalData.PersonalData | OAuthRepo> = PersonalData.register(
  Effect.map(Effect.service(OAuthRepo), (repo) => ({
    name: "oauth",
    level: LEVEL,
    export: (userId: Snowflake.Snowflake) =>
      Effect.map(
        repo.grantsOf(userId),
        (grants): ReadonlyArray<PersonalData.Section> =>
          grants.length === 0
            ? []
            : [
                {
                  file: "oauth_authorizations.json",
                  about: "the applications you have let sign you in (OAuth 2.0), and what they may see",
                  content: grants.map((grant) => ({
                    application_id: grant.applicationId,
                    scopes: grant.scopes,
                    granted_at: DateTime.formatIso(grant.createdAt)
                  }))
                }
              ]
      ),
    erase: (userId: Snowflake.Snowflake) => Effect.flatMap(DateTime.now, (now) => repo.revokeUser(userId, now))
  }))
)
