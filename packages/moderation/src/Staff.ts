/**
 * Who is platform staff: accounts listed by user id (`SERVICE_STAFF_USER_IDS`) or by phone
 * (`SERVICE_STAFF_PHONES`, any accepted spelling), both comma-separated. Read from configuration,
 * not the database, so that granting staff rights is an operator's act on the deployment.
 *
 * The host gives the lists (StaffConfig, a setting); the moderation domain builds Staff over them
 * and the accounts domain's AccountLookup (a phone is matched against the account's own).
 */

import { AccountLookup, Phone } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { Config, ConfigProvider, Context, Effect, Layer, Option, Schema } from "effect"

export interface StaffList {
  readonly userIds: ReadonlyArray<string>
  readonly phones: ReadonlyArray<string>
}

export class Staff extends Context.Service<
  Staff,
  { readonly isStaff: (userId: Snowflake.Snowflake) => Effect.Effect<boolean> }
>()("@veche/moderation/Staff") {
  static readonly layer: Layer.Layer<Staff, never, StaffConfig | AccountLookup.AccountLookup> = Layer.effect(
    Staff,
    Effect.gen(function* () {
      const list = yield* StaffConfig
      const accounts = yield* AccountLookup.AccountLookup
      const ids = new Set(list.userIds)
      // Any accepted spelling; an entry that is no phone at all matches nobody.
      const phones = new Set(list.phones.flatMap((text) => Option.toArray(Phone.normalise(text))))
      return Staff.of({
        isStaff: (userId) =>
          ids.has(userId)
            ? Effect.succeed(true)
            : phones.size === 0
              ? Effect.succeed(false)
              : Effect.map(accounts.read(userId), (account) =>
                  Option.exists(account, (found) => found.phone !== null && phones.has(found.phone))
                )
      })
    })
  )
}

/** The staff lists as the host gives them (a setting, like the other Configuration services). */
export class StaffConfig extends Context.Service<StaffConfig, StaffList>()("@veche/moderation/StaffConfig") {
  static readonly layer = (list: StaffList): Layer.Layer<StaffConfig> =>
    Layer.succeed(StaffConfig, StaffConfig.of(list))

  /** Both lists from configuration; a malformed entry stops the start rather than being ignored. */
  static readonly layerConfig: Layer.Layer<StaffConfig, Config.ConfigError> = Layer.unwrap(
    Effect.gen(function* () {
      const split = (name: string) =>
        Config.String(name).pipe(
          Config.withDefault(""),
          Config.map((text) =>
            text
              .split(",")
              .map((part) => part.trim())
              .filter((part) => part !== "")
          )
        )
      const userIds = yield* split("SERVICE_STAFF_USER_IDS")
      const phoneTexts = yield* split("SERVICE_STAFF_PHONES")
      const badId = userIds.find((id) => !Schema.is(Snowflake.Snowflake)(id))
      if (badId !== undefined) {
        return yield* Config.fail(
          new ConfigProvider.SourceError({
            message: `SERVICE_STAFF_USER_IDS: ${JSON.stringify(badId)} is not a user id`
          })
        )
      }
      const phones: Array<string> = []
      for (const text of phoneTexts) {
        const phone = Phone.normalise(text)
        if (Option.isNone(phone)) {
          return yield* Config.fail(
            new ConfigProvider.SourceError({
              message: `SERVICE_STAFF_PHONES: ${JSON.stringify(text)} is not a +7 phone`
            })
          )
        }
        phones.push(phone.value)
      }
      return StaffConfig.layer({ userIds, phones })
    })
  )
}
