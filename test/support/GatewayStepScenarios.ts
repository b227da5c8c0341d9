/**
 * A connection's steps take turns: the heartbeat sweep's 4009 waits for an IDENTIFY suspended on the
 * guild list instead of ending the connection under it (which left a session, and the user online,
 * for a socket that was gone); a guild left or joined while IDENTIFY runs; resumes; an IDENTIFY that
 * fails after READY. Guild reads are held (or failed) by gates the test sets. Run on memory
 * (test/gateway-step-order.test.ts) and PostgreSQL (adapters/postgres/test/GatewayStepOrder.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import { PresenceStore } from "@veche/gateway"
import { GuildsRepo } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { Effect, Layer } from "effect"
import { post, register, send } from "./Accounts.ts"
import * as GatewayServer from "./GatewayServer.ts"
import { accept, createGuild, guildWith, inviteTo } from "./Guilds.ts"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/**
 * While set, this user's `call`-th guild list read (from 1) waits until `release` resolves, after
 * calling `entered`: before the read, or after it when `readFirst` (the answer then is from before).
 */
let gate: { userId: string; call: number; readFirst: boolean; entered: () => void; release: Promise<void> } | undefined

/** While set, reading this guild for a GUILD_CREATE fails once (a defect, as a lost database connection would be). */
let failingGuild: string | undefined

/** The repositories (memory unless given), with the guild reads through the gates. */
const gated = (base: Layer.Layer<TestHost.Repositories>) =>
  Layer.effect(
    GuildsRepo.GuildsRepo,
    Effect.gen(function* () {
      const inner = yield* GuildsRepo.GuildsRepo
      return GuildsRepo.GuildsRepo.of({
        ...inner,
        memberSnapshot: (guildId, userId) =>
          Effect.suspend(() => {
            if (guildId !== failingGuild) return inner.memberSnapshot(guildId, userId)
            failingGuild = undefined
            return Effect.die(new Error("the database went away"))
          }),
        guildsOf: (userId) =>
          Effect.suspend(() => {
            const held = gate
            if (held === undefined || userId !== held.userId) return inner.guildsOf(userId)
            held.call -= 1
            if (held.call > 0) return inner.guildsOf(userId)
            gate = undefined
            const wait = Effect.andThen(
              Effect.sync(() => held.entered()),
              Effect.promise(() => held.release)
            )
            return held.readFirst
              ? Effect.tap(inner.guildsOf(userId), () => wait)
              : Effect.andThen(wait, inner.guildsOf(userId))
          })
      })
    })
  ).pipe(Layer.provideMerge(base))

const hold = (userId: string, call = 1, readFirst = false) => {
  let entered = () => {}
  let release = () => {}
  const reached = new Promise<void>((resolve) => {
    entered = resolve
  })
  gate = {
    userId,
    call,
    readFirst,
    entered: () => entered(),
    release: new Promise<void>((resolve) => {
      release = resolve
    })
  }
  return { reached, open: () => release() }
}

const identify = (token: string) => ({
  op: 2,
  d: { token, properties: { os: "l", browser: "t", device: "t" } }
})

export const gatewayStepScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) =>
  describe("a gateway connection's steps", () => {
    layer(
      GatewayServer.layer({
        repositories: gated(repositories?.() ?? TestHost.layerMemoryRepositories),
        presenceGraceMs: 1000
      }),
      {
        timeout: "60 seconds"
      }
    )((it) => {
      it.effect("a missed heartbeat during a slow IDENTIFY closes after it, and leaves no session online", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const listening = yield* GatewayServer.Listening
          const user = yield* register("+79050019401", "gw_order")
          const client = yield* promise(() => GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10`))
          expect(yield* promise(() => client.next())).toMatchObject({ op: 10 })
          const held = hold(user.user_id)
          client.send(identify(user.access_token))
          yield* promise(() => held.reached)
          // past the deadline and its grace while IDENTIFY waits: the 4009 waits its turn
          yield* host.adjustClock("62 seconds")
          yield* host.adjustClock("21 seconds")
          expect(yield* promise(() => client.unread(300))).toEqual([])
          held.open()
          yield* promise(() => client.nextDispatch("READY"))
          // then the overdue heartbeat is asked for, and the connection closes as its deadline says
          expect(yield* promise(() => client.next())).toMatchObject({ op: 1 })
          yield* host.adjustClock("21 seconds")
          expect((yield* promise(() => client.closed)).code).toBe(4009)
          // its session was let go with the socket: offline after the grace
          yield* host.adjustClock("5 seconds")
          yield* promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
          const present = yield* host.run(
            Effect.gen(function* () {
              const store = yield* PresenceStore.PresenceStore
              return yield* store.get([Snowflake.Snowflake.make(user.user_id)])
            })
          )
          expect(present.size).toBe(0)
        })
      )

      it.effect("a member removed while their IDENTIFY runs gets none of that guild's events after READY", () =>
        Effect.gen(function* () {
          const listening = yield* GatewayServer.Listening
          const owner = yield* register("+79050019402", "gw_order_owner")
          const member = yield* register("+79050019403", "gw_order_member")
          const guild = yield* guildWith(owner.access_token, [member.access_token], "Kick Race")
          const client = yield* promise(() => GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10`))
          expect(yield* promise(() => client.next())).toMatchObject({ op: 10 })
          // the list IDENTIFY joins from is read (with the guild), then the member is removed
          const held = hold(member.user_id, 1, true)
          client.send(identify(member.access_token))
          yield* promise(() => held.reached)
          const kicked = yield* send(
            "DELETE",
            `/api/v10/guilds/${guild.id}/members/${member.user_id}`,
            undefined,
            owner.access_token
          )
          expect(kicked.status).toBe(204)
          held.open()
          yield* promise(() => client.nextDispatch("READY"))
          // the guild's later events do not reach the removed member
          const renamed = yield* send("PATCH", `/api/v10/guilds/${guild.id}`, { name: "Renamed" }, owner.access_token)
          expect(renamed.status).toBe(200)
          const rest = yield* promise(() => client.unread(400))
          expect(rest.filter((frame) => frame.t === "GUILD_UPDATE")).toEqual([])
          yield* promise(() => client.close(1000))
        })
      )

      it.effect(
        "a guild joined while the IDENTIFY runs reaches the session: GUILD_CREATE after READY, then its events",
        () =>
          Effect.gen(function* () {
            const listening = yield* GatewayServer.Listening
            const owner = yield* register("+79050019404", "gw_order_owner2")
            const member = yield* register("+79050019405", "gw_order_joiner")
            const guild = yield* createGuild(owner.access_token, "Join Race")
            const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
            const client = yield* promise(() => GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10`))
            expect(yield* promise(() => client.next())).toMatchObject({ op: 10 })
            // the list IDENTIFY joins from is read (without the guild), then the user joins it
            const held = hold(member.user_id, 1, true)
            client.send(identify(member.access_token))
            yield* promise(() => held.reached)
            expect((yield* accept(member.access_token, code)).status).toBe(200)
            held.open()
            yield* promise(() => client.nextDispatch("READY"))
            expect(yield* promise(() => client.nextDispatch("GUILD_CREATE"))).toMatchObject({ d: { id: guild.id } })
            const renamed = yield* send("PATCH", `/api/v10/guilds/${guild.id}`, { name: "Renamed" }, owner.access_token)
            expect(renamed.status).toBe(200)
            expect(yield* promise(() => client.nextDispatch("GUILD_UPDATE"))).toMatchObject({ d: { name: "Renamed" } })
            yield* promise(() => client.close(1000))
          })
      )

      it.effect("a resume from before earlier resumes replays what was missed, not their RESUMED", () =>
        Effect.gen(function* () {
          const listening = yield* GatewayServer.Listening
          const user = yield* register("+79050019406", "gw_order_resumer")
          const guild = yield* createGuild(user.access_token, "Resume Twice")
          const url = `${listening.gatewayUrl}?v=10`
          const first = yield* promise(() => GatewayServer.RawClient.connect(url))
          yield* promise(() => first.next())
          first.send(identify(user.access_token))
          const sessionId = ((yield* promise(() => first.nextDispatch("READY"))).d as { session_id: string }).session_id
          const seen = (yield* promise(() => first.nextDispatch("GUILD_CREATE"))).s
          yield* promise(() => first.close(4000))
          const resume = (seq: number | null) =>
            Effect.gen(function* () {
              const client = yield* promise(() => GatewayServer.RawClient.connect(url))
              yield* promise(() => client.next())
              client.send({ op: 6, d: { token: user.access_token, session_id: sessionId, seq } })
              return client
            })
          for (let round = 0; round < 2; round++) {
            const client = yield* resume(seen)
            expect(yield* promise(() => client.nextDispatch("RESUMED"))).toMatchObject({ op: 0 })
            yield* promise(() => client.close(4000))
          }
          expect(
            (yield* post(`/api/v10/guilds/${guild.id}/channels`, { name: "missed" }, user.access_token)).status
          ).toBe(201)
          const last = yield* resume(seen)
          const replayed = [yield* promise(() => last.next()), yield* promise(() => last.next())]
          expect(replayed.map((frame) => frame.t)).toEqual(["CHANNEL_CREATE", "RESUMED"])
          expect(yield* promise(() => last.unread(200))).toEqual([])
          yield* promise(() => last.close(1000))
        })
      )

      it.effect("an IDENTIFY failing after READY leaves no session to resume (op 9), and the next IDENTIFY works", () =>
        Effect.gen(function* () {
          const listening = yield* GatewayServer.Listening
          const user = yield* register("+79050019407", "gw_order_failed")
          const guild = yield* createGuild(user.access_token, "Fails Once")
          const url = `${listening.gatewayUrl}?v=10`
          const first = yield* promise(() => GatewayServer.RawClient.connect(url))
          yield* promise(() => first.next())
          // READY goes out, then building the guild's GUILD_CREATE fails
          failingGuild = guild.id
          first.send(identify(user.access_token))
          const sessionId = ((yield* promise(() => first.nextDispatch("READY"))).d as { session_id: string }).session_id
          expect((yield* promise(() => first.closed)).code).toBe(4000)
          const second = yield* promise(() => GatewayServer.RawClient.connect(url))
          yield* promise(() => second.next())
          second.send({ op: 6, d: { token: user.access_token, session_id: sessionId, seq: 1 } })
          expect(yield* promise(() => second.next())).toMatchObject({ op: 9, d: false })
          const third = yield* promise(() => GatewayServer.RawClient.connect(url))
          yield* promise(() => third.next())
          third.send(identify(user.access_token))
          yield* promise(() => third.nextDispatch("READY"))
          expect(yield* promise(() => third.nextDispatch("GUILD_CREATE"))).toMatchObject({ d: { id: guild.id } })
          yield* promise(() => third.close(1000))
        })
      )
    })
  })
