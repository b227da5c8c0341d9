/**
 * The guild permission matrix through HTTP: who may edit a guild, create a channel, kick, ban and
 * make an invite (owner, administrator, a moderator holding exactly the permission, a plain member,
 * a non-member, a banned user, and bots with and without the permission in their managed role);
 * then the role hierarchy, managed (bot) roles, channel overwrites, and the users-only routes bots
 * are refused on (20001).
 *
 * Users sign in with real sessions; the two bots with fixed `Bot` tokens in front of them
 * (`Authenticator.layerFirstOf`).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Guilds, Permissions } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { Authenticator, SessionAuthenticator } from "@veche/rest"
import { TestHost } from "@veche/test-host"
import { UsersRepo } from "@veche/users"
import { DateTime, Effect, Option } from "effect"
import { json, type Registered, register } from "./support/Accounts.ts"
import { accept, type CreatedGuild, createGuild, inviteTo } from "./support/Guilds.ts"

// ---------------------------------------------------------------------------------------------
// The host: real sessions for users, two fixed bot tokens

const BOTS = {
  /** Added to each guild with exactly the permission the action needs. */
  helper: { id: Snowflake.Snowflake.make("1311000000000000081"), token: "MTMx.perm-helper-bot" },
  /** Added with View Channel only. */
  reader: { id: Snowflake.Snowflake.make("1311000000000000082"), token: "MTMx.perm-reader-bot" }
} as const

const authenticator = Authenticator.Authenticator.layerFirstOf(
  Authenticator.Authenticator.layerStatic(
    Object.values(BOTS).map((bot) => ({
      scheme: "Bot" as const,
      token: bot.token,
      principal: { kind: "bot" as const, userId: bot.id }
    }))
  ),
  SessionAuthenticator.layer
)

const host = TestHost.layer({ authenticator, rateLimits: { enabled: false } })

// ---------------------------------------------------------------------------------------------
// Callers and requests

interface Caller {
  readonly userId: string
  /** The whole Authorization header. */
  readonly authorization: string
}

const asUser = (account: Registered): Caller => ({
  userId: account.user_id,
  authorization: `Bearer ${account.access_token}`
})
const asBot = (bot: (typeof BOTS)[keyof typeof BOTS]): Caller => ({ userId: bot.id, authorization: `Bot ${bot.token}` })

const call = (caller: Caller, method: string, path: string, body?: unknown) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (h) =>
    h.fetch(`/api/v10${path}`, {
      method,
      headers: {
        authorization: caller.authorization,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  )

/** What an answer came to: `[status]` on success, `[status, code]` on an error. */
type Outcome = readonly [number] | readonly [number, number]

const outcomeOf = (response: Response) =>
  Effect.gen(function* () {
    if (response.status < 400) return [response.status] as Outcome
    const body = (yield* json(response)) as { code: number }
    return [response.status, body.code] as Outcome
  })

const expectOutcome = (response: Response, expected: Outcome) =>
  Effect.map(outcomeOf(response), (outcome) => expect(outcome).toEqual(expected))

const MISSING_ACCESS: Outcome = [403, 50001]
const MISSING_PERMISSIONS: Outcome = [403, 50013]
const BOTS_CANNOT: Outcome = [403, 20001]

const flag = (permissions: bigint) => Permissions.toWire(permissions)

let phone = 79673000000
const user = (name: string) => register(`+${++phone}`, `${name}_${phone % 100000}`)

/** The bot users exist once per host (the guilds domain shows members as users). */
const ensureBotUsers = Effect.flatMap(Effect.service(TestHost.TestHost), (h) =>
  h.run(
    Effect.gen(function* () {
      const users = yield* UsersRepo.UsersRepo
      const now = yield* DateTime.now
      for (const [name, bot] of Object.entries(BOTS))
        if (Option.isNone(yield* users.findById(bot.id)))
          yield* users
            .insert({ id: bot.id, username: `${name}_bot`, displayName: null, createdAt: now })
            .pipe(Effect.orDie)
    })
  )
)

/** A bot joins through the domain (the OAuth bot flow has no route yet), authorised by the owner. */
const addBot = (
  guild: CreatedGuild,
  owner: Registered,
  bot: (typeof BOTS)[keyof typeof BOTS],
  name: string,
  permissions: bigint
) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (h) =>
    h.run(
      Effect.flatMap(Effect.service(Guilds.Guilds), (guilds) =>
        guilds.addBot(
          { userId: Snowflake.Snowflake.make(owner.user_id), bot: false },
          Snowflake.Snowflake.make(guild.id),
          { userId: bot.id, name },
          permissions
        )
      )
    )
  )

/** An owner, a new guild of theirs and an invitation into it: where each scenario starts. */
const ownedGuild = (name?: string) =>
  Effect.gen(function* () {
    const ownerAccount = yield* user("owner")
    const guild = yield* createGuild(ownerAccount.access_token, name)
    const code = yield* inviteTo(ownerAccount.access_token, guild.system_channel_id)
    return { ownerAccount, owner: asUser(ownerAccount), guild, code }
  })

/** A new user who joins through the invitation. */
const joined = (code: string, name: string) =>
  Effect.gen(function* () {
    const account = yield* user(name)
    expect((yield* accept(account.access_token, code)).status).toBe(200)
    return account
  })

const createRole = (guild: CreatedGuild, owner: Caller, name: string, permissions: bigint) =>
  Effect.gen(function* () {
    const response = yield* call(owner, "POST", `/guilds/${guild.id}/roles`, { name, permissions: flag(permissions) })
    expect(response.status).toBe(200)
    return ((yield* json(response)) as { id: string }).id
  })

const giveRoles = (guild: CreatedGuild, owner: Caller, member: Caller, roleIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const response = yield* call(owner, "PATCH", `/guilds/${guild.id}/members/${member.userId}`, { roles: roleIds })
    expect(response.status).toBe(200)
  })

const placeRoles = (guild: CreatedGuild, owner: Caller, positions: ReadonlyArray<readonly [string, number]>) =>
  Effect.gen(function* () {
    const response = yield* call(
      owner,
      "PATCH",
      `/guilds/${guild.id}/roles`,
      positions.map(([id, position]) => ({ id, position }))
    )
    expect(response.status).toBe(200)
  })

// ---------------------------------------------------------------------------------------------
// The world of the matrix: one guild per action, every kind of caller

const ACTORS = [
  "owner",
  "admin",
  "moderator",
  "member",
  "nonMember",
  "banned",
  "botWithPermission",
  "botWithout"
] as const
type Actor = (typeof ACTORS)[number]

interface World {
  readonly guild: CreatedGuild
  readonly code: string
  readonly callers: Readonly<Record<Actor, Caller>>
  readonly owner: Caller
  /** A plain member to kick. */
  readonly target: Registered
  /** A registered user outside the guild, to ban. */
  readonly someone: Registered
}

/** A guild where the moderator role and the helper bot's managed role hold exactly `needed`. */
const world = (needed: bigint) =>
  Effect.gen(function* () {
    yield* ensureBotUsers
    const { ownerAccount, owner, guild, code } = yield* ownedGuild("Matrix")
    const admin = yield* joined(code, "admin")
    const moderator = yield* joined(code, "moderator")
    const member = yield* joined(code, "member")
    const banned = yield* joined(code, "banned")
    const target = yield* joined(code, "target")
    const nonMember = yield* user("outsider")
    const someone = yield* user("someone")

    yield* giveRoles(guild, owner, asUser(admin), [
      yield* createRole(guild, owner, "admin", Permissions.Flags.Administrator)
    ])
    yield* giveRoles(guild, owner, asUser(moderator), [yield* createRole(guild, owner, "moderator", needed)])
    yield* expectOutcome(yield* call(owner, "PUT", `/guilds/${guild.id}/bans/${banned.user_id}`, {}), [204])

    yield* addBot(guild, ownerAccount, BOTS.helper, "helper", needed)
    yield* addBot(guild, ownerAccount, BOTS.reader, "reader", Permissions.Flags.ViewChannel)

    const callers: Record<Actor, Caller> = {
      owner,
      admin: asUser(admin),
      moderator: asUser(moderator),
      member: asUser(member),
      nonMember: asUser(nonMember),
      banned: asUser(banned),
      botWithPermission: asBot(BOTS.helper),
      botWithout: asBot(BOTS.reader)
    }
    return { guild, code, callers, owner, target: target, someone } satisfies World
  })

interface Action {
  readonly needed: bigint
  readonly request: (w: World, caller: Caller) => Effect.Effect<Response, never, TestHost.TestHost>
  /** Puts things back after a success, so the next caller meets the same state. */
  readonly undo?: (w: World) => Effect.Effect<void, never, TestHost.TestHost>
  readonly expected: Readonly<Record<Actor, Outcome>>
}

const MATRIX: Readonly<Record<string, Action>> = {
  "PATCH /guilds/{id} {name}": {
    needed: Permissions.Flags.ManageGuild,
    request: (w, caller) => call(caller, "PATCH", `/guilds/${w.guild.id}`, { name: "Renamed" }),
    expected: {
      owner: [200],
      admin: [200],
      moderator: [200],
      member: MISSING_PERMISSIONS,
      nonMember: MISSING_ACCESS,
      banned: MISSING_ACCESS,
      botWithPermission: [200],
      botWithout: MISSING_PERMISSIONS
    }
  },
  "POST /guilds/{id}/channels": {
    needed: Permissions.Flags.ManageChannels,
    request: (w, caller) => call(caller, "POST", `/guilds/${w.guild.id}/channels`, { name: "new channel" }),
    expected: {
      owner: [201],
      admin: [201],
      moderator: [201],
      member: MISSING_PERMISSIONS,
      nonMember: MISSING_ACCESS,
      banned: MISSING_ACCESS,
      botWithPermission: [201],
      botWithout: MISSING_PERMISSIONS
    }
  },
  "DELETE /guilds/{id}/members/{member} (kick)": {
    needed: Permissions.Flags.KickMembers,
    request: (w, caller) => call(caller, "DELETE", `/guilds/${w.guild.id}/members/${w.target.user_id}`),
    // the kicked member comes back by the same invitation
    undo: (w) =>
      Effect.flatMap(accept(w.target.access_token, w.code), (response) =>
        Effect.sync(() => expect(response.status).toBe(200))
      ),
    expected: {
      owner: [204],
      admin: [204],
      moderator: [204],
      member: MISSING_PERMISSIONS,
      nonMember: MISSING_ACCESS,
      banned: MISSING_ACCESS,
      botWithPermission: [204],
      botWithout: MISSING_PERMISSIONS
    }
  },
  "PUT /guilds/{id}/bans/{user}": {
    needed: Permissions.Flags.BanMembers,
    request: (w, caller) => call(caller, "PUT", `/guilds/${w.guild.id}/bans/${w.someone.user_id}`, {}),
    undo: (w) =>
      Effect.flatMap(call(w.owner, "DELETE", `/guilds/${w.guild.id}/bans/${w.someone.user_id}`), (response) =>
        Effect.sync(() => expect(response.status).toBe(204))
      ),
    expected: {
      owner: [204],
      admin: [204],
      moderator: [204],
      member: MISSING_PERMISSIONS,
      nonMember: MISSING_ACCESS,
      banned: MISSING_ACCESS,
      botWithPermission: [204],
      botWithout: MISSING_PERMISSIONS
    }
  },
  "POST /channels/{id}/invites": {
    needed: Permissions.Flags.CreateInstantInvite,
    request: (w, caller) => call(caller, "POST", `/channels/${w.guild.system_channel_id}/invites`, {}),
    // @everyone may invite in a new guild, so members and bots without a role of their own may too
    expected: {
      owner: [200],
      admin: [200],
      moderator: [200],
      member: [200],
      nonMember: MISSING_ACCESS,
      banned: MISSING_ACCESS,
      botWithPermission: [200],
      botWithout: [200]
    }
  }
}

describe("Guild permissions", () => {
  layer(host)((it) => {
    describe("the matrix", () => {
      for (const [name, action] of Object.entries(MATRIX)) {
        it.effect(name, () =>
          Effect.gen(function* () {
            const w = yield* world(action.needed)
            const seen: Partial<Record<Actor, Outcome>> = {}
            for (const actor of ACTORS) {
              const outcome = yield* outcomeOf(yield* action.request(w, w.callers[actor]))
              seen[actor] = outcome
              if (outcome[0] < 400 && action.undo !== undefined) yield* action.undo(w)
            }
            expect(seen).toEqual(action.expected)
          })
        )
      }
    })

    it.effect("a kicker reaches only members below their highest role", () =>
      Effect.gen(function* () {
        const { owner, guild, code } = yield* ownedGuild()
        const mod = asUser(yield* joined(code, "mod"))
        const peer = asUser(yield* joined(code, "peer"))
        const senior = asUser(yield* joined(code, "senior"))
        const junior = asUser(yield* joined(code, "junior"))
        const modRole = yield* createRole(
          guild,
          owner,
          "mod",
          Permissions.Flags.KickMembers | Permissions.Flags.BanMembers
        )
        const seniorRole = yield* createRole(guild, owner, "senior", 0n)
        yield* placeRoles(guild, owner, [
          [modRole, 1],
          [seniorRole, 2]
        ])
        yield* giveRoles(guild, owner, mod, [modRole])
        yield* giveRoles(guild, owner, peer, [modRole])
        yield* giveRoles(guild, owner, senior, [seniorRole])

        for (const target of [peer, senior]) {
          yield* expectOutcome(
            yield* call(mod, "DELETE", `/guilds/${guild.id}/members/${target.userId}`),
            MISSING_PERMISSIONS
          )
          yield* expectOutcome(
            yield* call(mod, "PUT", `/guilds/${guild.id}/bans/${target.userId}`, {}),
            MISSING_PERMISSIONS
          )
        }
        // both still in the guild
        for (const target of [peer, senior])
          expect((yield* call(owner, "GET", `/guilds/${guild.id}/members/${target.userId}`)).status).toBe(200)
        yield* expectOutcome(yield* call(mod, "DELETE", `/guilds/${guild.id}/members/${junior.userId}`), [204])
      })
    )

    it.effect("nobody kicks or bans the owner, administrators and bots included", () =>
      Effect.gen(function* () {
        yield* ensureBotUsers
        const { ownerAccount, owner, guild, code } = yield* ownedGuild()
        const adminAccount = yield* user("admin")
        expect((yield* accept(adminAccount.access_token, code)).status).toBe(200)
        const admin = asUser(adminAccount)
        const adminRole = yield* createRole(guild, owner, "admin", Permissions.Flags.Administrator)
        yield* placeRoles(guild, owner, [[adminRole, 5]])
        yield* giveRoles(guild, owner, admin, [adminRole])
        yield* addBot(guild, ownerAccount, BOTS.helper, "helper", Permissions.Flags.Administrator)

        for (const caller of [admin, asBot(BOTS.helper), owner]) {
          yield* expectOutcome(
            yield* call(caller, "DELETE", `/guilds/${guild.id}/members/${owner.userId}`),
            MISSING_PERMISSIONS
          )
          yield* expectOutcome(
            yield* call(caller, "PUT", `/guilds/${guild.id}/bans/${owner.userId}`, {}),
            MISSING_PERMISSIONS
          )
        }
        const read = yield* call(owner, "GET", `/guilds/${guild.id}`)
        expect(read.status).toBe(200)
        expect(yield* json(read)).toMatchObject({ owner_id: owner.userId })
      })
    )

    it.effect("a role manager reaches only roles below their own and grants only what they hold", () =>
      Effect.gen(function* () {
        const { owner, guild, code } = yield* ownedGuild()
        const manager = asUser(yield* joined(code, "manager"))
        const member = asUser(yield* joined(code, "member"))
        const managerRole = yield* createRole(
          guild,
          owner,
          "manager",
          Permissions.Flags.ManageRoles | Permissions.Flags.KickMembers
        )
        const above = yield* createRole(guild, owner, "above", 0n)
        const below = yield* createRole(guild, owner, "below", 0n)
        yield* placeRoles(guild, owner, [
          [below, 1],
          [managerRole, 2],
          [above, 3]
        ])
        yield* giveRoles(guild, owner, manager, [managerRole])
        const roles = `/guilds/${guild.id}/roles`

        // above them, and their own (equal): out of reach
        for (const roleId of [above, managerRole]) {
          yield* expectOutcome(
            yield* call(manager, "PATCH", `${roles}/${roleId}`, { name: "mine" }),
            MISSING_PERMISSIONS
          )
          yield* expectOutcome(yield* call(manager, "DELETE", `${roles}/${roleId}`), MISSING_PERMISSIONS)
        }
        yield* expectOutcome(
          yield* call(manager, "PATCH", `/guilds/${guild.id}/members/${member.userId}`, { roles: [above] }),
          MISSING_PERMISSIONS
        )

        // a permission they lack: neither on an existing role nor on a new one
        yield* expectOutcome(
          yield* call(manager, "PATCH", `${roles}/${below}`, { permissions: flag(Permissions.Flags.BanMembers) }),
          MISSING_PERMISSIONS
        )
        yield* expectOutcome(
          yield* call(manager, "POST", roles, { name: "bans", permissions: flag(Permissions.Flags.BanMembers) }),
          MISSING_PERMISSIONS
        )

        // below them, with what they hold: allowed
        const edited = yield* call(manager, "PATCH", `${roles}/${below}`, {
          name: "renamed",
          permissions: flag(Permissions.Flags.KickMembers)
        })
        expect(edited.status).toBe(200)
        expect(yield* json(edited)).toMatchObject({
          name: "renamed",
          permissions: flag(Permissions.Flags.KickMembers)
        })
        yield* expectOutcome(
          yield* call(manager, "POST", roles, { name: "kicks", permissions: flag(Permissions.Flags.KickMembers) }),
          [200]
        )
        yield* expectOutcome(
          yield* call(manager, "PATCH", `/guilds/${guild.id}/members/${member.userId}`, { roles: [below] }),
          [200]
        )
        yield* expectOutcome(yield* call(manager, "DELETE", `${roles}/${below}`), [204])

        // the owner stands above every role
        yield* expectOutcome(yield* call(owner, "PATCH", `${roles}/${above}`, { name: "still mine" }), [200])
      })
    )

    it.effect("a bot's managed role is neither handed out, taken away nor deleted", () =>
      Effect.gen(function* () {
        yield* ensureBotUsers
        const { ownerAccount, owner, guild, code } = yield* ownedGuild()
        const memberAccount = yield* user("member")
        expect((yield* accept(memberAccount.access_token, code)).status).toBe(200)
        yield* addBot(guild, ownerAccount, BOTS.helper, "helper", Permissions.Flags.KickMembers)

        const listed = (yield* json(yield* call(owner, "GET", `/guilds/${guild.id}/roles`))) as ReadonlyArray<{
          id: string
          managed: boolean
          tags?: { bot_id?: string }
        }>
        const botRoles = listed.filter((role) => role.managed)
        expect(botRoles.map((role) => role.tags)).toEqual([{ bot_id: BOTS.helper.id }])
        const botRoleId = botRoles[0]?.id ?? ""

        yield* expectOutcome(
          yield* call(owner, "PATCH", `/guilds/${guild.id}/members/${memberAccount.user_id}`, { roles: [botRoleId] }),
          MISSING_PERMISSIONS
        )
        yield* expectOutcome(
          yield* call(owner, "PATCH", `/guilds/${guild.id}/members/${BOTS.helper.id}`, { roles: [] }),
          MISSING_PERMISSIONS
        )
        yield* expectOutcome(
          yield* call(owner, "DELETE", `/guilds/${guild.id}/roles/${botRoleId}`),
          MISSING_PERMISSIONS
        )
        const bot = (yield* json(yield* call(owner, "GET", `/guilds/${guild.id}/members/${BOTS.helper.id}`))) as {
          roles: Array<string>
        }
        expect(bot.roles).toEqual([botRoleId])
      })
    )

    it.effect("an overwrite denying View Channel to @everyone hides the channel from members, not the owner", () =>
      Effect.gen(function* () {
        const { owner, guild, code } = yield* ownedGuild()
        const memberAccount = yield* user("member")
        expect((yield* accept(memberAccount.access_token, code)).status).toBe(200)
        const member = asUser(memberAccount)
        const channel = `/channels/${guild.system_channel_id}`

        yield* expectOutcome(yield* call(member, "GET", channel), [200])
        yield* expectOutcome(
          yield* call(owner, "PUT", `${channel}/permissions/${guild.id}`, {
            type: 0,
            allow: "0",
            deny: flag(Permissions.Flags.ViewChannel)
          }),
          [204]
        )
        yield* expectOutcome(yield* call(member, "GET", channel), MISSING_ACCESS)
        yield* expectOutcome(yield* call(member, "POST", `${channel}/invites`, {}), MISSING_ACCESS)
        const seen = yield* call(owner, "GET", channel)
        expect(seen.status).toBe(200)
        expect(yield* json(seen)).toMatchObject({ id: guild.system_channel_id, name: "general" })
      })
    )

    it.effect("an overwrite allowing Manage Channels to a member's role lets them edit that channel only", () =>
      Effect.gen(function* () {
        const { owner, guild, code } = yield* ownedGuild()
        const memberAccount = yield* user("editor")
        expect((yield* accept(memberAccount.access_token, code)).status).toBe(200)
        const member = asUser(memberAccount)
        const editors = yield* createRole(guild, owner, "editors", 0n)
        yield* giveRoles(guild, owner, member, [editors])
        const other = yield* call(owner, "POST", `/guilds/${guild.id}/channels`, { name: "other" })
        expect(other.status).toBe(201)
        const otherId = ((yield* json(other)) as { id: string }).id
        const channel = `/channels/${guild.system_channel_id}`

        yield* expectOutcome(yield* call(member, "PATCH", channel, { name: "renamed" }), MISSING_PERMISSIONS)
        yield* expectOutcome(
          yield* call(owner, "PUT", `${channel}/permissions/${editors}`, {
            type: 0,
            allow: flag(Permissions.Flags.ManageChannels)
          }),
          [204]
        )
        const renamed = yield* call(member, "PATCH", channel, { name: "renamed" })
        expect(renamed.status).toBe(200)
        expect(yield* json(renamed)).toMatchObject({ id: guild.system_channel_id, name: "renamed" })

        // only that channel: not another one, and no new channels in the guild
        yield* expectOutcome(
          yield* call(member, "PATCH", `/channels/${otherId}`, { name: "nope" }),
          MISSING_PERMISSIONS
        )
        yield* expectOutcome(
          yield* call(member, "POST", `/guilds/${guild.id}/channels`, { name: "nope" }),
          MISSING_PERMISSIONS
        )
      })
    )

    it.effect("bots cannot create guilds or accept invitations (20001)", () =>
      Effect.gen(function* () {
        yield* ensureBotUsers
        const { guild, code } = yield* ownedGuild()
        const bot = asBot(BOTS.reader)

        yield* expectOutcome(yield* call(bot, "POST", "/guilds", { name: "Bot Guild" }), BOTS_CANNOT)
        const accepted = yield* call(bot, "POST", `/invites/${code}`, {})
        expect(accepted.status).toBe(403)
        expect(yield* json(accepted)).toEqual({ code: 20001, message: "Bots cannot use this endpoint" })
        // and the bot did not join
        yield* expectOutcome(yield* call(bot, "GET", `/guilds/${guild.id}`), MISSING_ACCESS)
      })
    )
  })
})
