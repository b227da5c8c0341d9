/**
 * The guild services (GuildsDomain.layer) over memory stores and the test clock, with the accounts
 * domain replaced by a book of standings the test writes (the AccountStandings port): what a
 * service-level guild test provides instead of the HTTP host. Each test builds its own world.
 */
import { EventBus, Snowflake } from "@veche/platform"
import { PersonalData, ProfilesRepo, UsersDomain, UsersRepo } from "@veche/users"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import { SecureRandom } from "effect/crypto"
import { TestClock } from "effect/testing"
import { AccountStandings, type Standing } from "../../src/AccountStandings.ts"
import { ChannelContents } from "../../src/ChannelContents.ts"
import type * as GuildAccess from "../../src/GuildAccess.ts"
import { type Created, type CreateRequest, Guilds } from "../../src/Guilds.ts"
import * as GuildsDomain from "../../src/GuildsDomain.ts"
import { GuildsRepo } from "../../src/GuildsRepo.ts"
import { Invites } from "../../src/Invites.ts"

export const START = DateTime.makeUnsafe("2026-03-01T12:00:00Z")

/** The standings the fake accounts domain answers, by user id; a user missing here has no account. */
export class StandingsBook extends Context.Service<StandingsBook, Ref.Ref<ReadonlyMap<string, Standing>>>()(
  "@veche/guilds/test/StandingsBook"
) {}

const standings = Layer.effect(
  AccountStandings,
  Effect.map(StandingsBook, (book) =>
    AccountStandings.of({
      read: (userId) => Effect.map(Ref.get(book), (all) => Option.fromNullishOr(all.get(userId)))
    })
  )
).pipe(Layer.provideMerge(Layer.effect(StandingsBook, Ref.make<ReadonlyMap<string, Standing>>(new Map()))))

const clock = Layer.effectDiscard(TestClock.setTime(DateTime.toEpochMillis(START)))

export const layer = GuildsDomain.layer.pipe(
  Layer.provideMerge(standings),
  // users as everybody sees them, from the users domain over its memory stores
  Layer.provideMerge(UsersDomain.layerDirectory),
  Layer.provideMerge(
    Layer.mergeAll(
      GuildsRepo.layerMemory,
      UsersRepo.UsersRepo.layerMemory,
      ProfilesRepo.ProfilesRepo.layerMemory,
      EventBus.EventBus.layerMemory,
      Snowflake.SnowflakeGenerator.layer(2),
      SecureRandom.layerWebCrypto,
      // where the guilds' part of a user's personal data registers (no privacy domain here)
      PersonalData.PersonalData.layer,
      // nothing kept in channels by other domains here
      ChannelContents.layer
    )
  ),
  Layer.provideMerge(clock)
)

/** A verified (by phone), unrestricted account made a day before the clock's start. */
export const GOOD: Standing = {
  emailVerified: false,
  phoneVerified: true,
  createdAt: DateTime.subtract(START, { days: 1 }),
  restricted: false
}

let counter = 0

/** A user with an account in this standing; answers the actor that acts as it. */
export const user = Effect.fn(function* (standing: Partial<Standing> = {}) {
  const ids = yield* Snowflake.SnowflakeGenerator
  const id = yield* ids.next
  yield* Effect.orDie(
    (yield* UsersRepo.UsersRepo).insert({
      id,
      username: `user${++counter}`,
      displayName: null,
      createdAt: yield* DateTime.now
    })
  )
  yield* Ref.update(yield* StandingsBook, (all) => new Map([...all, [id, { ...GOOD, ...standing }]]))
  return { userId: id, bot: false } satisfies GuildAccess.Actor
})

/** A guild of `owner` (no icon); answers what creation made. */
export const guildOf = (owner: GuildAccess.Actor, request: Partial<CreateRequest> = {}) =>
  Effect.flatMap(Guilds, (guilds) =>
    guilds.create(owner, { name: "Test Guild", ...request }, () => Effect.succeed(null))
  )

/** A fresh invitation to the guild's general channel by `inviter`; answers its code. */
export const inviteTo = (
  inviter: GuildAccess.Actor,
  channelId: Snowflake.Snowflake,
  options: { readonly maxAge?: number; readonly maxUses?: number } = {}
) =>
  Effect.flatMap(Invites, (invites) =>
    Effect.map(invites.create(inviter, channelId, { unique: true, ...options }), (shown) => shown.invite.code)
  )

/** The text channel a new guild starts with (its system channel). */
export const generalOf = (created: Created): Snowflake.Snowflake => {
  const general = created.guild.systemChannelId
  if (general === null) throw new Error("a new guild has a system channel")
  return general
}

/** `owner`'s guild with `others` joined through an invitation. */
export const guildWith = Effect.fn(function* (owner: GuildAccess.Actor, others: ReadonlyArray<GuildAccess.Actor>) {
  const created = yield* guildOf(owner)
  const code = yield* inviteTo(owner, generalOf(created))
  const invites = yield* Invites
  for (const other of others) yield* invites.accept(other, code)
  return created
})
