/**
 * Guilds made ready for the catalogue through the routes, for hosts whose publication conditions
 * are lowered to two members and no age or owner 2FA: members besides the owner, verification low,
 * a rules channel; `listedGuild` also publishes it.
 */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { type Registered, send } from "./Accounts.ts"
import { accept, createGuild, inviteTo } from "./Guilds.ts"

const API = "/api/v10"

/** A catalogue description of the allowed length (40–300). */
export const DESCRIPTION = "A friendly place to talk about everything under the sun, every day."

/** A guild meeting the lowered conditions, not yet published. */
export const readyGuild = (owner: Registered, members: ReadonlyArray<Registered>, name: string) =>
  Effect.gen(function* () {
    const guild = yield* createGuild(owner.access_token, name)
    const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
    for (const member of members) expect((yield* accept(member.access_token, code)).status).toBe(200)
    const patched = yield* send(
      "PATCH",
      `${API}/guilds/${guild.id}`,
      { verification_level: 1, rules_channel_id: guild.system_channel_id },
      owner.access_token
    )
    expect(patched.status).toBe(200)
    return guild
  })

/** The same guild with one member, published in the catalogue (category gaming). */
export const listedGuild = (owner: Registered, member: Registered, name: string) =>
  Effect.gen(function* () {
    const guild = yield* readyGuild(owner, [member], name)
    const published = yield* send(
      "PUT",
      `${API}/guilds/${guild.id}/discovery`,
      { category: "gaming", description: DESCRIPTION },
      owner.access_token
    )
    expect(published.status).toBe(200)
    return guild
  })
