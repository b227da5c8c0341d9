/**
 * Every dispatch the routes publish today is what its domain's `<Domain>Dispatches` declares: the
 * payload encodes with the declared schema unchanged (so the gateway can encode from the schemas),
 * and every declared name is published by some route here (no schema for a dispatch nobody sends).
 */
import { describe, expect, layer } from "@effect/vitest"
import { GuildDispatches } from "@veche/guilds"
import { type Dispatch, EventBus } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { UserDispatches } from "@veche/users"
import { Effect, Exit, Fiber, Ref, Schema, Stream } from "effect"
import { json, post, register, send } from "./support/Accounts.ts"
import { accept, createGuild, inviteTo } from "./support/Guilds.ts"

/** The payload schemas declared for a name, by every domain that publishes it. */
const declared = (type: string): ReadonlyArray<Schema.Top> =>
  [GuildDispatches.schemas, UserDispatches.schemas].flatMap((schemas) =>
    Object.entries(schemas)
      .filter(([name]) => name === type)
      .map(([, schema]) => schema)
  )

/** Encodes with any of the declared schemas, to exactly the published object. */
const encodes = (dispatch: Dispatch.Dispatch) =>
  declared(dispatch.type).some((schema) => {
    const encoded = Schema.encodeUnknownExit(schema as Schema.Codec<unknown, unknown>)(dispatch.data)
    return Exit.isSuccess(encoded) && JSON.stringify(encoded.value) === JSON.stringify(dispatch.data)
  })

describe("Dispatches", () => {
  layer(TestHost.layer())((it) => {
    it.effect("each published dispatch encodes with its declared schema; each declared name is published", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const bus = yield* host.run(Effect.service(EventBus.EventBus))
        const seen = yield* Ref.make<ReadonlyArray<Dispatch.Dispatch>>([])
        const fiber = yield* bus.events.pipe(
          Stream.runForEach((dispatch) => Ref.update(seen, (all) => [...all, dispatch])),
          Effect.forkChild
        )
        yield* Effect.yieldNow

        const owner = yield* register("+79661180001", "dispatch_owner")
        const guest = yield* register("+79661180002", "dispatch_guest")
        const troll = yield* register("+79661180003", "dispatch_troll")
        const guild = yield* createGuild(owner.access_token, "Dispatches")
        const base = `/api/v10/guilds/${guild.id}`
        const ok = (response: Response) => expect(response.status).toBeLessThan(300)
        const as = owner.access_token

        ok(yield* send("PATCH", base, { name: "Dispatches 2" }, as))
        const role = (yield* json(yield* post(`${base}/roles`, { name: "mods" }, as))) as { id: string }
        ok(yield* send("PATCH", `${base}/roles/${role.id}`, { name: "moderators" }, as))
        ok(yield* send("DELETE", `${base}/roles/${role.id}`, undefined, as))
        const channel = (yield* json(yield* post(`${base}/channels`, { name: "extra" }, as))) as { id: string }
        ok(yield* send("PATCH", `/api/v10/channels/${channel.id}`, { name: "more" }, as))
        ok(yield* send("DELETE", `/api/v10/channels/${channel.id}`, undefined, as))
        const code = yield* inviteTo(as, guild.system_channel_id)
        ok(yield* accept(guest.access_token, code))
        ok(yield* accept(troll.access_token, code))
        ok(yield* send("PATCH", `${base}/members/${guest.user_id}`, { nick: "guest" }, as))
        ok(yield* send("PUT", `${base}/bans/${troll.user_id}`, {}, as))
        ok(yield* send("DELETE", `${base}/bans/${troll.user_id}`, undefined, as))
        ok(yield* send("DELETE", `/api/v10/invites/${code}`, undefined, as))
        ok(yield* send("PATCH", "/api/v10/users/@me", { bio: "hi" }, guest.access_token))
        ok(yield* send("PATCH", "/api/v10/users/@me/settings", { status: "dnd" }, guest.access_token))
        ok(yield* send("DELETE", base, undefined, as))

        yield* Effect.yieldNow
        yield* Fiber.interrupt(fiber)
        const dispatches = yield* Ref.get(seen)
        expect(dispatches.filter((dispatch) => !encodes(dispatch)).map((dispatch) => dispatch.type)).toEqual([])
        const names = [...Object.keys(GuildDispatches.schemas), ...Object.keys(UserDispatches.schemas)]
        expect([...new Set(dispatches.map((dispatch) => dispatch.type))].sort()).toEqual([...new Set(names)].sort())
      })
    )
  })
})
