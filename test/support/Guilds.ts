/** Helpers the guild tests share: a guild made through the routes, an invitation, a join. */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { json, post, send } from "./Accounts.ts"

export interface CreatedGuild {
  readonly id: string
  readonly owner_id: string
  readonly system_channel_id: string
  readonly roles: ReadonlyArray<{ readonly id: string; readonly name: string; readonly permissions: string }>
}

export const createGuild = (token: string, name = "Test Guild", extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const created = yield* post("/api/v10/guilds", { name, ...extra }, token)
    expect(created.status).toBe(201)
    return (yield* json(created)) as CreatedGuild
  })

/** A new invitation to the guild's general channel (unlimited, one day). */
export const inviteTo = (token: string, channelId: string, body: Record<string, unknown> = { unique: true }) =>
  Effect.gen(function* () {
    const made = yield* post(`/api/v10/channels/${channelId}/invites`, body, token)
    expect(made.status).toBe(200)
    return ((yield* json(made)) as { code: string }).code
  })

/** Joins through an invitation; answers the response. */
export const accept = (token: string, code: string) => post(`/api/v10/invites/${code}`, {}, token)

/** Creates a guild owned by `owner` and brings `others` in through an invitation. */
export const guildWith = (owner: string, others: ReadonlyArray<string>, name?: string) =>
  Effect.gen(function* () {
    const guild = yield* createGuild(owner, name)
    const code = yield* inviteTo(owner, guild.system_channel_id)
    for (const token of others) expect((yield* accept(token, code)).status).toBe(200)
    return guild
  })

export const get = (path: string, token: string) => send("GET", path, undefined, token)

/** How `PATCH /guilds/{id}` refuses an `owner_id` who may not own the guild (status and body). */
export const ownershipRefused = (message: string) => ({
  status: 400,
  body: {
    code: 50035,
    message: "Invalid Form Body",
    errors: { owner_id: { _errors: [{ code: "GUILD_OWNER_INVALID", message }] } }
  }
})
