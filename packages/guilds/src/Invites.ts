/**
 * Invitations: creating them on a channel, listing them for those who manage them, showing one to
 * anyone holding its code, accepting one, and revoking one. Accepting runs every check a join must
 * pass — the account's restriction (20025), the guild's verification level (40002), a ban (40007)
 * and the account's guild cap (30001; AccountGuildCap: 100, 200 with Plus) — and the cap, the ban and the use count are settled in one store step.
 * The catalogue's join (`joinOpen`) runs the same checks and the same step without an invitation.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { PublicUsers } from "@veche/users"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import { AccountGuildCap } from "./AccountGuildCap.ts"
import * as AccountStandings from "./AccountStandings.ts"
import type { Guild, GuildCap, Invite, Member } from "./Guild.ts"
import * as GuildAccess from "./GuildAccess.ts"
import { GuildEvents } from "./GuildEvents.ts"
import { GuildPremium } from "./GuildPremium.ts"
import {
  AccountRestricted,
  BannedFromGuild,
  InviteNotFound,
  MissingPermission,
  NoSuchChannel,
  NoSuchGuild,
  VerificationRequired,
  WrongChannelType
} from "./GuildsErrors.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import type * as GuildViews from "./GuildViews.ts"
import * as Permissions from "./Permissions.ts"

export interface NewInvite {
  /** Seconds; 0 never expires. Default one day. */
  readonly maxAge?: number | undefined
  /** 0 unlimited. */
  readonly maxUses?: number | undefined
  readonly temporary?: boolean | undefined
  /** false: an equal live invite by the same member is handed back instead of a new one. */
  readonly unique?: boolean | undefined
}

/** An invite with what its wire form shows: the guild, the channel, who made it, how many are in. */
export interface Shown extends GuildViews.InviteParts {
  readonly memberCount: number
}

export const DEFAULT_MAX_AGE = 86_400
const CODE_LENGTH = 10
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

const make = Effect.gen(function* () {
  const repo = yield* GuildsRepo
  const users = yield* PublicUsers.PublicUsers
  const events = yield* GuildEvents
  const standings = yield* AccountStandings.AccountStandings
  const random = yield* SecureRandom.SecureRandom
  const caps = yield* AccountGuildCap
  const premium = yield* GuildPremium

  /** The joining account's guild cap (Plus raises it); bots are not capped. */
  const capOf = (actor: GuildAccess.Actor): Effect.Effect<GuildCap> =>
    actor.bot ? Effect.succeed(null) : caps.of(actor.userId)

  // 62^10 codes: a collision with a live invite is not a practical concern.
  const newCode = Effect.map(random.randomBytes(CODE_LENGTH), (bytes) =>
    Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("")
  )

  const show = Effect.fnUntraced(function* (invites: ReadonlyArray<Invite>) {
    const inviters = yield* users.findMany(
      invites.flatMap((invite) => (invite.inviterId === null ? [] : [invite.inviterId]))
    )
    const shown: Array<Shown> = []
    for (const invite of invites) {
      const [guild, channel, memberCount, boosts] = yield* Effect.all(
        [
          repo.find(invite.guildId),
          repo.channel(invite.channelId),
          repo.memberCount(invite.guildId),
          premium.of(invite.guildId)
        ],
        { concurrency: "unbounded" }
      )
      if (Option.isNone(guild) || Option.isNone(channel)) continue
      shown.push({
        invite,
        guild: guild.value,
        channel: channel.value,
        inviter: invite.inviterId === null ? null : (inviters.get(invite.inviterId) ?? null),
        premium: boosts,
        memberCount
      })
    }
    return shown
  })

  const showOne = Effect.fnUntraced(function* (invite: Invite) {
    const [shown] = yield* show([invite])
    if (shown === undefined) return yield* new InviteNotFound()
    return shown
  })

  const create = Spans.fn("Invites.create")(function* (
    actor: GuildAccess.Actor,
    channelId: Snowflake.Snowflake,
    request: NewInvite
  ) {
    const { channel, permissions } = yield* GuildAccess.channelPlace(repo, actor, channelId)
    yield* GuildAccess.requireInChannel(permissions, Permissions.Flags.CreateInstantInvite, "CreateInstantInvite")
    if (channel.type === 4) return yield* new WrongChannelType()
    // A shadow-restricted account makes no invitations either (and is not told why beyond 20025).
    const standing = yield* standings.read(actor.userId)
    if (Option.isSome(standing) && standing.value.restricted) return yield* new AccountRestricted()
    const now = yield* DateTime.now
    const maxAge = request.maxAge ?? DEFAULT_MAX_AGE
    const maxUses = request.maxUses ?? 0
    const temporary = request.temporary ?? false
    if (request.unique !== true) {
      const same = (yield* repo.invitesOf(channel.guildId, now)).find(
        (invite) =>
          invite.channelId === channelId &&
          invite.inviterId === actor.userId &&
          invite.maxAge === maxAge &&
          invite.maxUses === maxUses &&
          invite.temporary === temporary
      )
      if (same !== undefined)
        return yield* showOne(same).pipe(Effect.catchTag("InviteNotFound", () => Effect.fail(new NoSuchChannel())))
    }
    const invite: Invite = {
      code: yield* newCode,
      guildId: channel.guildId,
      channelId,
      inviterId: actor.userId,
      maxAge,
      maxUses,
      uses: 0,
      temporary,
      createdAt: now
    }
    // A channel (or its whole guild) deleted since the checks above: the channel is unknown now.
    yield* repo.createInvite(invite, now).pipe(Effect.catchTag("NoSuchGuild", () => Effect.fail(new NoSuchChannel())))
    yield* events.inviteCreate(invite)
    // Only a channel deleted in the meantime takes the new invite with it.
    return yield* showOne(invite).pipe(Effect.catchTag("InviteNotFound", () => Effect.fail(new NoSuchChannel())))
  })

  const ofGuild = Spans.fn("Invites.ofGuild")(function* (actor: GuildAccess.Actor, guildId: Snowflake.Snowflake) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    yield* GuildAccess.requirePermission(place, Permissions.Flags.ManageGuild, "ManageGuild")
    return yield* show(yield* repo.invitesOf(guildId, yield* DateTime.now))
  })

  const ofChannel = Spans.fn("Invites.ofChannel")(function* (actor: GuildAccess.Actor, channelId: Snowflake.Snowflake) {
    const { channel, permissions } = yield* GuildAccess.channelPlace(repo, actor, channelId)
    yield* GuildAccess.requireInChannel(permissions, Permissions.Flags.ManageChannels, "ManageChannels")
    const invites = yield* repo.invitesOf(channel.guildId, yield* DateTime.now)
    return yield* show(invites.filter((invite) => invite.channelId === channelId))
  })

  /** Anyone holding the code may look at it (that is what the code is for). */
  const get = Spans.fn("Invites.get")(function* (code: string) {
    const invite = yield* repo.invite(code, yield* DateTime.now)
    if (Option.isNone(invite)) return yield* new InviteNotFound()
    return yield* showOne(invite.value)
  })

  /** The checks every join passes, before the store settles the ban and the cap again in one step. */
  const mayJoin = Effect.fnUntraced(function* (actor: GuildAccess.Actor, guild: Guild, now: DateTime.Utc) {
    const standing = yield* standings.read(actor.userId)
    if (Option.isSome(standing) && standing.value.restricted) return yield* new AccountRestricted()
    if (Option.isSome(yield* repo.findBan(guild.id, actor.userId))) return yield* new BannedFromGuild()
    if (Option.isNone(standing) || !AccountStandings.meetsLevel(guild.verificationLevel, standing.value, now))
      return yield* new VerificationRequired()
  })

  const accept = Spans.fn("Invites.accept")(function* (actor: GuildAccess.Actor, code: string) {
    const now = yield* DateTime.now
    const found = yield* repo.invite(code, now)
    if (Option.isNone(found)) return yield* new InviteNotFound()
    const guild = yield* repo.find(found.value.guildId)
    if (Option.isNone(guild)) return yield* new InviteNotFound()
    if (Option.isNone(yield* repo.member(guild.value.id, actor.userId))) yield* mayJoin(actor, guild.value, now)
    const accepted = yield* repo.accept(code, actor.userId, now, yield* capOf(actor))
    if (accepted.joined) {
      yield* events.memberAdd(accepted.member)
      yield* events.guildCreate(guild.value.id, actor.userId)
    }
    return { shown: yield* showOne(accepted.invite), joined: accepted.joined }
  })

  /**
   * Joins without an invitation (the public catalogue decides the guild is open to all): the same
   * checks and the same store step as accepting one, minus the invitation's use count. `joined`
   * false: they were a member already.
   */
  const joinOpen = Spans.fn("Invites.joinOpen")(function* (actor: GuildAccess.Actor, guildId: Snowflake.Snowflake) {
    const now = yield* DateTime.now
    const guild = yield* repo.find(guildId)
    if (Option.isNone(guild)) return yield* new NoSuchGuild()
    if (Option.isSome(yield* repo.member(guildId, actor.userId))) return { joined: false }
    yield* mayJoin(actor, guild.value, now)
    const member: Member = { guildId, userId: actor.userId, nick: null, roleIds: [], joinedAt: now }
    const joined = yield* repo.join(member, yield* capOf(actor))
    if (joined) {
      yield* events.memberAdd(member)
      yield* events.guildCreate(guildId, actor.userId)
    }
    return { joined }
  })

  const remove = Spans.fn("Invites.remove")(function* (actor: GuildAccess.Actor, code: string) {
    const found = yield* repo.invite(code, yield* DateTime.now)
    if (Option.isNone(found)) return yield* new InviteNotFound()
    const invite = found.value
    const channelAccess = yield* GuildAccess.channelPlace(repo, actor, invite.channelId).pipe(
      Effect.catchTag("NoSuchChannel", () => Effect.fail(new InviteNotFound()))
    )
    if (
      !Permissions.has(channelAccess.permissions, Permissions.Flags.ManageChannels) &&
      !Permissions.has(channelAccess.place.permissions, Permissions.Flags.ManageGuild)
    )
      return yield* new MissingPermission({ needed: "ManageChannels" })
    const shown = yield* showOne(invite)
    if (Option.isNone(yield* repo.deleteInvite(code))) return yield* new InviteNotFound()
    yield* events.inviteDelete(invite)
    return shown
  })

  return { create, ofGuild, ofChannel, get, accept, joinOpen, remove }
})

export class Invites extends Context.Service<Invites>()("@veche/guilds/Invites", { make }) {
  static readonly layer: Layer.Layer<
    Invites,
    never,
    GuildsRepo | PublicUsers.PublicUsers | GuildEvents | AccountStandings.AccountStandings | SecureRandom.SecureRandom
  > = Layer.effect(Invites, Invites.make)
}
