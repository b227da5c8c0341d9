/**
 * op 8 REQUEST_GUILD_MEMBERS answered as the platform does (v10): GUILD_MEMBERS_CHUNK dispatches
 * of up to 1000 members, each with `chunk_index`/`chunk_count`, the request's `nonce` (up to 32
 * bytes, else left out), `not_found` for requested ids that are not members, and `presences` when
 * asked for with the GUILD_PRESENCES intent: the chunk's members who are not offline (an empty list
 * when none is); without the intent the platform treats `presences` as false and leaves it out.
 * Limits:
 *
 * - one guild per request, and only a guild the session is in (others: nothing is sent);
 * - a name prefix (`query`) or `user_ids` return at most 100 members;
 * - the whole list (`query: ""`) needs the GUILD_MEMBERS intent: without it the answer is one empty
 *   chunk (clients waiting on the nonce resolve instead of timing out); with `limit: 0` it is every
 *   member, once per guild per user every 30 seconds: a request sooner is answered with the
 *   platform's RATE_LIMITED dispatch (`opcode: 8`, `retry_after` in seconds, `meta`).
 *
 * The 30-second window is kept on this node (a bot's shards for one guild are one session).
 */
import { type GuildSchemas, MemberChunks } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { Clock, Effect, Schema } from "effect"
import * as Frames from "./Frames.ts"
import * as Intents from "./Intents.ts"
import { Presence } from "./Presence.ts"
import * as Session from "./Session.ts"

export const CHUNK_SIZE = 1000
export const MAX_MATCHES = 100
export const MAX_NONCE_BYTES = 32
export const FULL_LIST_WINDOW_MS = 30_000

const isSnowflake = Schema.is(Snowflake.Snowflake)
const encoder = new TextEncoder()

const asList = (value: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> =>
  value === undefined ? [] : typeof value === "string" ? [value] : value

export const make = Effect.gen(function* () {
  const chunks = yield* MemberChunks.MemberChunks
  const presence = yield* Presence
  /** `${userId}:${guildId}` → when the next full-list request is allowed. */
  const fullListAllowedAt = new Map<string, number>()

  const send = (session: Session.Session, name: string, data: unknown) =>
    Session.deliver(session, Frames.dispatchParts(name, JSON.stringify(data)))

  const answer = Effect.fnUntraced(function* (session: Session.Session, request: Frames.RequestGuildMembersData) {
    const guildIds = asList(request.guild_id)
    const guildId = guildIds[0]
    if (guildIds.length !== 1 || guildId === undefined || !isSnowflake(guildId) || !session.guildIds.has(guildId))
      return
    const nonce =
      request.nonce !== undefined && encoder.encode(request.nonce).length <= MAX_NONCE_BYTES ? request.nonce : undefined
    const presences = request.presences === true && (session.intents & Intents.GUILD_PRESENCES) !== 0
    const wantedIds = asList(request.user_ids)
    let members: ReadonlyArray<GuildSchemas.Member> = []
    let notFound: ReadonlyArray<string> | undefined
    if (wantedIds.length > 0) {
      const ids = wantedIds.slice(0, MAX_MATCHES)
      const valid = ids.filter(isSnowflake)
      const found = yield* chunks.byIds(guildId, valid)
      members = found.members
      notFound = [...found.notFound, ...ids.filter((id) => !isSnowflake(id))]
    } else if (request.query !== undefined) {
      const whole = request.query === ""
      const limit = request.limit ?? 0
      if (whole && (session.intents & Intents.GUILD_MEMBERS) === 0) members = []
      else if (whole && limit === 0) {
        const key = `${session.userId}:${guildId}`
        const now = yield* Clock.currentTimeMillis
        const allowedAt = fullListAllowedAt.get(key) ?? 0
        if (allowedAt > now) {
          send(session, "RATE_LIMITED", {
            opcode: 8,
            retry_after: (allowedAt - now) / 1000,
            meta: { guild_id: guildId, ...(nonce === undefined ? {} : { nonce }) }
          })
          return
        }
        fullListAllowedAt.set(key, now + FULL_LIST_WINDOW_MS)
        for (const [k, at] of fullListAllowedAt) if (at <= now) fullListAllowedAt.delete(k)
        members = yield* chunks.search(guildId, "", 0)
      } else
        members = yield* chunks.search(guildId, request.query, Math.min(Math.max(limit, 0) || MAX_MATCHES, MAX_MATCHES))
    } else return
    const count = Math.max(1, Math.ceil(members.length / CHUNK_SIZE))
    for (let index = 0; index < count; index++) {
      const part = members.slice(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE)
      send(session, "GUILD_MEMBERS_CHUNK", {
        guild_id: guildId,
        members: part,
        chunk_index: index,
        chunk_count: count,
        ...(index === 0 && notFound !== undefined && notFound.length > 0 ? { not_found: notFound } : {}),
        ...(presences ? { presences: yield* presence.among(part.map((member) => member.user.id)) } : {}),
        ...(nonce === undefined ? {} : { nonce })
      })
    }
  })
  return { answer }
})
