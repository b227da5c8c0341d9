/**
 * AccountSnapshots must agree with the repositories it reads (on memory it is built from them; on
 * PostgreSQL it is one query over their tables).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { ProfilesRepo, type UsersRepo } from "@veche/users"
import { DateTime, Effect, Option } from "effect"
import { AccountSnapshots } from "../../src/AccountSnapshot.ts"
import { AccountsRepo } from "../../src/AccountsRepo.ts"
import { EmailLinksRepo } from "../../src/EmailLinksRepo.ts"
import { MfaRepo } from "../../src/MfaRepo.ts"
import { Normalised } from "../../src/Phone.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(19))
let counter = 0

type Needs =
  | AccountSnapshots
  | AccountsRepo
  | ProfilesRepo.ProfilesRepo
  | MfaRepo
  | EmailLinksRepo
  | UsersRepo.UsersRepo

export const accountSnapshotsContract = (it: Vitest.MethodsNonLive<Needs>) => {
  it.effect("reads the user, credentials, profile, 2FA and the pending address together", () =>
    Effect.gen(function* () {
      const snapshots = yield* AccountSnapshots
      const id = yield* ids.next
      const now = DateTime.makeUnsafe(Math.floor(Date.now()))
      const phone = Normalised.make(`+79${String((Date.now() + ++counter) % 1_000_000_000).padStart(9, "0")}`)
      yield* (yield* AccountsRepo).register({
        user: {
          id,
          username: `snap_${process.pid}_${Date.now() % 1_000_000}_${counter}`,
          displayName: "Snap",
          createdAt: now
        },
        credentials: {
          userId: id,
          phone,
          email: null,
          emailVerified: false,
          passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
          dateOfBirth: "2000-01-01",
          createdAt: now,
          passwordChangedAt: null
        }
      })
      const first = Option.getOrThrow(yield* snapshots.read(id))
      expect(first).toMatchObject({ phone, email: null, emailVerified: false, mfaEnabled: false, emailPending: null })
      expect(first.user).toMatchObject({ id, displayName: "Snap" })
      expect(first.profile).toEqual(yield* (yield* ProfilesRepo.ProfilesRepo).get(id))

      yield* (yield* ProfilesRepo.ProfilesRepo).update(id, {
        bio: "about",
        customStatus: { text: "away" },
        guildOrder: ["5"]
      })
      yield* (yield* MfaRepo).enable({ userId: id, secretEnvelope: "v1.x", lastStep: 1, enabledAt: now }, [])
      yield* (yield* EmailLinksRepo).create({
        id: yield* ids.next,
        purpose: "bind",
        tokenDigest: `snap-${id}`,
        userId: id,
        email: "Pending@example.org",
        createdAt: now,
        expiresAt: DateTime.add(now, { days: 1 }),
        usedAt: null
      })
      const second = Option.getOrThrow(yield* snapshots.read(id))
      expect(second).toMatchObject({ mfaEnabled: true, emailPending: "Pending@example.org" })
      expect(second.profile).toMatchObject({
        bio: "about",
        customStatus: { text: "away" },
        guildOrder: ["5"],
        status: "online"
      })
      expect(Option.isNone(yield* snapshots.read(yield* ids.next))).toBe(true)
    })
  )
}
