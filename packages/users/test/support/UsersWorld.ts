/**
 * The users domain on memory repositories with its neighbours mocked: an event bus that records
 * what is published, servers from a fixed table (Memberships), an image store that accepts any
 * `data:` URI and records deletions (UserImages), Plus for the users a test gives it to
 * (ProfileEntitlements), and account details from the memory repositories
 * with a fixed contact record (AccountDetails).
 */
import { type Dispatch, EventBus, Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref, Stream } from "effect"
import { AccountDetails, type Details } from "../../src/AccountDetails.ts"
import { Memberships } from "../../src/Memberships.ts"
import { PersonalData } from "../../src/PersonalData.ts"
import { ProfileEntitlements } from "../../src/ProfileEntitlements.ts"
import { ProfilesRepo } from "../../src/ProfilesRepo.ts"
import type * as Relationship from "../../src/Relationship.ts"
import { RelationshipsRepo } from "../../src/RelationshipsRepo.ts"
import { type Kind, UserImages } from "../../src/UserImages.ts"
import * as UsersDomain from "../../src/UsersDomain.ts"
import { ImageRefused, ImageStorageUnavailable } from "../../src/UsersErrors.ts"
import { UsersRepo } from "../../src/UsersRepo.ts"

export const ALICE = Snowflake.Snowflake.make("1311000000000000001")
export const BOB = Snowflake.Snowflake.make("1311000000000000002")
export const CAROL = Snowflake.Snowflake.make("1311000000000000003")
export const GUILD_A = Snowflake.Snowflake.make("1311000000000000101")
export const GUILD_B = Snowflake.Snowflake.make("1311000000000000102")

/** What the mocks saw. */
export class Recorded extends Context.Service<
  Recorded,
  {
    readonly published: Ref.Ref<ReadonlyArray<Dispatch.Dispatch>>
    readonly removedImages: Ref.Ref<ReadonlyArray<string>>
    /** While set, the image store is down. */
    readonly storageDown: Ref.Ref<boolean>
    /** How each stored image was asked to treat an animation, in order (`avatar keep`, …). */
    readonly animations: Ref.Ref<ReadonlyArray<string>>
    /** Users with Plus (ProfileEntitlements answers from it). */
    readonly plus: Ref.Ref<ReadonlySet<string>>
  }
>()("@veche/users/test/Recorded") {}

const recorded = Layer.effect(
  Recorded,
  Effect.all({
    published: Ref.make<ReadonlyArray<Dispatch.Dispatch>>([]),
    removedImages: Ref.make<ReadonlyArray<string>>([]),
    storageDown: Ref.make(false),
    animations: Ref.make<ReadonlyArray<string>>([]),
    plus: Ref.make<ReadonlySet<string>>(new Set())
  })
)

/** Banner, animated avatar and premium_type 2 for the users in `Recorded.plus`, none for others. */
const entitlements = Layer.effect(
  ProfileEntitlements,
  Effect.map(Effect.service(Recorded), (seen) => ({
    of: (userId: Snowflake.Snowflake) =>
      Effect.map(Ref.get(seen.plus), (plus) => ({
        banner: plus.has(userId),
        animatedAvatar: plus.has(userId),
        premiumType: plus.has(userId) ? 2 : 0
      }))
  }))
)

/** Gives `userId` Plus in this world. */
export const givePlus = (userId: Snowflake.Snowflake) =>
  Effect.flatMap(Effect.service(Recorded), (seen) => Ref.update(seen.plus, (plus) => new Set([...plus, userId])))

const events = Layer.effect(
  EventBus.EventBus,
  Effect.map(Effect.service(Recorded), (seen) =>
    EventBus.EventBus.of({
      publish: (event) => Ref.update(seen.published, (all) => [...all, event]),
      events: Stream.empty
    })
  )
)

/** Hashes count up per kind; an image that is not a data URI is refused as media refuses it. */
const images = Layer.effect(
  UserImages,
  Effect.gen(function* () {
    const seen = yield* Recorded
    const counter = yield* Ref.make(0)
    return UserImages.of({
      store: (kind: Kind, _userId, dataUri, animation) =>
        Effect.gen(function* () {
          yield* Ref.update(seen.animations, (all) => [...all, `${kind} ${animation}`])
          if (yield* Ref.get(seen.storageDown)) return yield* new ImageStorageUnavailable()
          if (!dataUri.startsWith("data:")) {
            return yield* new ImageRefused({ field: kind, code: "IMAGE_INVALID", message: "Invalid image data" })
          }
          return `${kind}-${yield* Ref.updateAndGet(counter, (n) => n + 1)}`
        }),
      remove: (kind, userId, hash) => Ref.update(seen.removedImages, (all) => [...all, `${kind}/${userId}/${hash}`])
    })
  })
)

/** Alice has a phone and a pending address; everybody else only what the repositories hold. */
const accounts = Layer.effect(
  AccountDetails,
  Effect.gen(function* () {
    const users = yield* UsersRepo
    const profiles = yield* ProfilesRepo
    return AccountDetails.of({
      read: (userId) =>
        Effect.gen(function* () {
          const user = yield* users.findById(userId)
          if (Option.isNone(user)) return Option.none()
          const details: Details = {
            user: user.value,
            profile: yield* profiles.get(userId),
            maskedPhone: userId === ALICE ? "+7 *** *** ** 01" : null,
            email: userId === ALICE ? "alice@example.org" : null,
            emailVerified: userId === ALICE,
            mfaEnabled: false,
            emailPending: userId === ALICE ? "new@example.org" : null
          }
          return Option.some(details)
        })
    })
  })
)

/** Alice is in two servers (A joined first), Bob in one, Carol in none. */
const memberships = Memberships.layerStatic({ [ALICE]: [GUILD_A, GUILD_B], [BOB]: [GUILD_B] })

export const layer = UsersDomain.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(events, images, accounts, memberships, entitlements)),
  Layer.provideMerge(recorded),
  // where the users' part of a user's personal data registers (no privacy domain here)
  Layer.provideMerge(Layer.merge(UsersDomain.layerMemoryRepositories, PersonalData.layer))
)

/** Inserts a user created now. */
export const addUser = (id: Snowflake.Snowflake, username: string) =>
  Effect.gen(function* () {
    yield* Effect.orDie((yield* UsersRepo).insert({ id, username, displayName: null, createdAt: yield* DateTime.now }))
  })

/** One side's relationship row (the friends work writes both), since now. */
export const relate = (userId: Snowflake.Snowflake, otherId: Snowflake.Snowflake, type: Relationship.Type) =>
  Effect.gen(function* () {
    yield* (yield* RelationshipsRepo).put({ userId, otherId, type, nickname: null, since: yield* DateTime.now })
  })

export const published = Effect.flatMap(Effect.service(Recorded), (seen) => Ref.get(seen.published))
export const removedImages = Effect.flatMap(Effect.service(Recorded), (seen) => Ref.get(seen.removedImages))
