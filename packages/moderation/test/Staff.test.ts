import { describe, expect, it } from "@effect/vitest"
import { AccountLookup, AccountsRepo } from "@veche/auth"
import { ProfilesRepo, UserRecords, UsersRepo } from "@veche/users"
import { ConfigProvider, Effect, Layer } from "effect"
import { Staff, StaffConfig } from "../src/Staff.ts"

const withEnv = (env: Record<string, string>) =>
  Effect.service(Staff).pipe(
    Effect.provide(
      Staff.layer.pipe(
        Layer.provide(StaffConfig.layerConfig),
        Layer.provide(
          AccountLookup.AccountLookup.layer.pipe(
            Layer.provide(
              AccountsRepo.AccountsRepo.layerMemory.pipe(
                Layer.provide(UserRecords.UserRecords.layer),
                Layer.provide(Layer.merge(UsersRepo.UsersRepo.layerMemory, ProfilesRepo.ProfilesRepo.layerMemory))
              )
            )
          )
        ),
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
      )
    )
  )

describe("StaffConfig.layerConfig", () => {
  it.effect("reads user ids and phones in any spelling; nobody is staff by default", () =>
    Effect.gen(function* () {
      const staff = yield* withEnv({ SERVICE_STAFF_USER_IDS: " 1311000000000000042 , 1311000000000000043" })
      expect(yield* staff.isStaff("1311000000000000042" as never)).toBe(true)
      expect(yield* staff.isStaff("1311000000000000044" as never)).toBe(false)
      const nobody = yield* withEnv({})
      expect(yield* nobody.isStaff("1311000000000000042" as never)).toBe(false)
      yield* withEnv({ SERVICE_STAFF_PHONES: "8 (916) 123-45-67,+79161234568" })
    })
  )

  it.effect("refuses to start with an entry that is not an id or a +7 phone", () =>
    Effect.gen(function* () {
      const badId = yield* withEnv({ SERVICE_STAFF_USER_IDS: "alice" }).pipe(Effect.flip)
      expect(String(badId)).toContain("SERVICE_STAFF_USER_IDS")
      const badPhone = yield* withEnv({ SERVICE_STAFF_PHONES: "+1 555 0100" }).pipe(Effect.flip)
      expect(String(badPhone)).toContain("SERVICE_STAFF_PHONES")
    })
  )
})
