/**
 * Applications on memory with recorded ports: creation asks 2FA only when the setting says so and
 * leaves no bot user behind when refused; deletion takes the bot out of its guilds and retires it;
 * bot tokens and secrets are minted fresh and looked up by digest only.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option, Redacted, Ref } from "effect"
import { Digest, SecureRandom } from "effect/crypto"
import { ApplicationIcons } from "../src/ApplicationIcons.ts"
import { Applications } from "../src/Applications.ts"
import { ApplicationsConfig } from "../src/ApplicationsConfig.ts"
import * as ApplicationsDomain from "../src/ApplicationsDomain.ts"
import { BotGuilds } from "../src/BotGuilds.ts"
import { BotUsers } from "../src/BotUsers.ts"
import { ClientGrants } from "../src/ClientGrants.ts"
import { OwnerSecurity } from "../src/OwnerSecurity.ts"

/** What the ports were asked, in order. */
class Calls extends Context.Service<Calls, Ref.Ref<ReadonlyArray<string>>>()("test/Calls") {
  static readonly layer = Layer.effect(Calls, Ref.make<ReadonlyArray<string>>([]))
}

const owner = Snowflake.Snowflake.make("1311000000000000101")
const secured = Snowflake.Snowflake.make("1311000000000000102")

const ports = Layer.mergeAll(
  Layer.effect(
    BotUsers,
    Effect.map(Effect.service(Calls), (calls) =>
      BotUsers.of({
        create: (id, name) =>
          Effect.as(
            Ref.update(calls, (all) => [...all, `create ${id} ${name}`]),
            name
          ),
        retire: (id) => Ref.update(calls, (all) => [...all, `retire ${id}`])
      })
    )
  ),
  Layer.effect(
    BotGuilds,
    Effect.map(Effect.service(Calls), (calls) =>
      BotGuilds.of({ removeEverywhere: (id) => Ref.update(calls, (all) => [...all, `leave ${id}`]) })
    )
  ),
  Layer.effect(
    ApplicationIcons,
    Effect.map(Effect.service(Calls), (calls) =>
      ApplicationIcons.of({
        // the "hash" of an upload: its text after the comma
        store: (id, dataUri) =>
          Effect.as(
            Ref.update(calls, (all) => [...all, `store ${id}`]),
            dataUri.slice(dataUri.indexOf(",") + 1)
          ),
        remove: (id, hash) => Ref.update(calls, (all) => [...all, `remove ${id} ${hash}`])
      })
    )
  ),
  Layer.effect(
    ClientGrants,
    Effect.map(Effect.service(Calls), (calls) =>
      ClientGrants.of({ revokeAll: (id) => Ref.update(calls, (all) => [...all, `revoke grants ${id}`]) })
    )
  ),
  Layer.succeed(OwnerSecurity, OwnerSecurity.of({ hasTwoFactor: (userId) => Effect.succeed(userId === secured) }))
)

const world = (requireMfa: boolean) =>
  ApplicationsDomain.layer.pipe(
    Layer.provide(
      Layer.mergeAll(
        ports,
        ApplicationsDomain.layerMemoryRepositories,
        ApplicationsConfig.layer({ requireMfa }),
        Layer.effect(Snowflake.SnowflakeGenerator, Snowflake.SnowflakeGenerator.make(3)),
        SecureRandom.layerWebCrypto,
        Digest.layerWebCrypto
      )
    ),
    // the ports and the test read one record
    Layer.provideMerge(Calls.layer)
  )

const calls = Effect.flatMap(Effect.service(Calls), (ref) => Ref.get(ref))

describe("Applications", () => {
  layer(world(true))((it) => {
    it.effect("with the setting on, creation needs 2FA and a refusal creates no bot user", () =>
      Effect.gen(function* () {
        const applications = yield* Applications
        const refused = yield* Effect.flip(applications.create(owner, "Nope"))
        expect(refused._tag).toBe("MfaRequired")
        expect(yield* calls).toEqual([])
        const created = yield* applications.create(secured, "Fine")
        expect(yield* calls).toEqual([`create ${created.id} Fine`])
      })
    )
  })

  layer(world(false))((it) => {
    it.effect(
      "tokens are fresh per reset and found by digest; deletion ends OAuth grants, leaves guilds and retires the bot",
      () =>
        Effect.gen(function* () {
          const applications = yield* Applications
          const app = yield* applications.create(owner, "Helper")
          const first = yield* applications.resetBotToken(owner, app.id)
          const second = yield* applications.resetBotToken(owner, app.id)
          expect(Redacted.value(first)).toMatch(/^vbt_[A-Za-z0-9_-]{43}$/)
          expect(yield* applications.authenticateBot(first)).toEqual(Option.none())
          expect(Option.map(yield* applications.authenticateBot(second), (a) => a.id)).toEqual(Option.some(app.id))
          expect(yield* applications.authenticateClient(app.id, Redacted.make("vcs_none"))).toEqual(Option.none())
          const secret = yield* applications.resetSecret(owner, app.id)
          expect(Redacted.value(secret)).toMatch(/^vcs_[A-Za-z0-9_-]{43}$/)
          expect(Option.map(yield* applications.authenticateClient(app.id, secret), (a) => a.id)).toEqual(
            Option.some(app.id)
          )
          expect(yield* applications.authenticateClient(app.id, Redacted.make(`${Redacted.value(secret)}x`))).toEqual(
            Option.none()
          )
          expect((yield* Effect.flip(applications.resetSecret(secured, app.id)))._tag).toBe("NotApplicationOwner")
          expect((yield* Effect.flip(applications.remove(secured, app.id)))._tag).toBe("NoSuchApplication")
          yield* applications.remove(owner, app.id)
          expect(yield* applications.authenticateBot(second)).toEqual(Option.none())
          expect(yield* calls).toEqual([
            `create ${app.id} Helper`,
            `revoke grants ${app.id}`,
            `leave ${app.id}`,
            `retire ${app.id}`
          ])
        })
    )

    it.effect(
      "an icon is stored only for the owner; the one it replaces and the last one on deletion are removed",
      () =>
        Effect.gen(function* () {
          const applications = yield* Applications
          const app = yield* applications.create(owner, "Iconic")
          const start = (yield* calls).length
          expect((yield* Effect.flip(applications.update(secured, app.id, { icon: "data:x,one" })))._tag).toBe(
            "NoSuchApplication"
          )
          expect((yield* applications.update(owner, app.id, { icon: "data:x,one" })).icon).toBe("one")
          expect((yield* applications.update(owner, app.id, { name: "Still" })).icon).toBe("one")
          expect((yield* applications.update(owner, app.id, { icon: "data:x,two" })).icon).toBe("two")
          expect((yield* applications.update(owner, app.id, { icon: null })).icon).toBe(null)
          yield* applications.update(owner, app.id, { icon: "data:x,three" })
          yield* applications.remove(owner, app.id)
          expect((yield* calls).slice(start)).toEqual([
            `store ${app.id}`,
            `store ${app.id}`,
            `remove ${app.id} one`,
            `remove ${app.id} two`,
            `store ${app.id}`,
            `revoke grants ${app.id}`,
            `leave ${app.id}`,
            `retire ${app.id}`,
            `remove ${app.id} three`
          ])
        })
    )
  })
})
