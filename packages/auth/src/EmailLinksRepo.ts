/**
 * The port to e-mail links, and its in-memory adapter. A link is used by one conditional change
 * (unused, unexpired, of this purpose), so of two concurrent uses exactly one gets it. Time is the
 * `now` the caller passes, so memory and PostgreSQL agree under the test clock.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import type { EmailLink, Purpose } from "./EmailLink.ts"

export class EmailLinksRepo extends Context.Service<
  EmailLinksRepo,
  {
    readonly create: (link: EmailLink) => Effect.Effect<void>
    /** Uses the link with this digest if it has this purpose, is unused and unexpired at `now`. */
    readonly use: (tokenDigest: string, purpose: Purpose, now: DateTime.Utc) => Effect.Effect<Option.Option<EmailLink>>
    /**
     * The link with this digest if it has this purpose, is unused and unexpired at `now`, without
     * using it (a flow that must check a second factor before it spends the link).
     */
    readonly find: (tokenDigest: string, purpose: Purpose, now: DateTime.Utc) => Effect.Effect<Option.Option<EmailLink>>
    /** The newest unused, unexpired link of this user and purpose (the address awaiting confirmation). */
    readonly newestOpen: (
      userId: Snowflake.Snowflake,
      purpose: Purpose,
      now: DateTime.Utc
    ) => Effect.Effect<Option.Option<EmailLink>>
    /** Burns every unused link of this user and purpose (a newer link went out, or recovery ended). */
    readonly burnFor: (userId: Snowflake.Snowflake, purpose: Purpose, now: DateTime.Utc) => Effect.Effect<number>
  }
>()("@veche/auth/EmailLinksRepo") {
  static readonly layerMemory: Layer.Layer<EmailLinksRepo> = Layer.effect(
    EmailLinksRepo,
    Effect.gen(function* () {
      const links = yield* Ref.make<ReadonlyArray<EmailLink>>([])
      return EmailLinksRepo.of({
        create: (link) => Ref.update(links, (all) => [...all, link]),
        use: (tokenDigest, purpose, now) =>
          Ref.modify(links, (all): [Option.Option<EmailLink>, ReadonlyArray<EmailLink>] => {
            const found = all.find(
              (link) =>
                link.tokenDigest === tokenDigest &&
                link.purpose === purpose &&
                link.usedAt === null &&
                DateTime.isGreaterThan(link.expiresAt, now)
            )
            if (found === undefined) return [Option.none(), all]
            const used = { ...found, usedAt: now }
            return [Option.some(used), all.map((link) => (link === found ? used : link))]
          }),
        find: (tokenDigest, purpose, now) =>
          Effect.map(Ref.get(links), (all) =>
            Option.fromNullishOr(
              all.find(
                (link) =>
                  link.tokenDigest === tokenDigest &&
                  link.purpose === purpose &&
                  link.usedAt === null &&
                  DateTime.isGreaterThan(link.expiresAt, now)
              )
            )
          ),
        newestOpen: (userId, purpose, now) =>
          Effect.map(Ref.get(links), (all) =>
            Option.fromNullishOr(
              all
                .filter(
                  (link) =>
                    link.userId === userId &&
                    link.purpose === purpose &&
                    link.usedAt === null &&
                    DateTime.isGreaterThan(link.expiresAt, now)
                )
                .at(-1)
            )
          ),
        burnFor: (userId, purpose, now) =>
          Ref.modify(links, (all): [number, ReadonlyArray<EmailLink>] => {
            let burned = 0
            const next = all.map((link) => {
              if (link.userId !== userId || link.purpose !== purpose || link.usedAt !== null) return link
              burned++
              return { ...link, usedAt: now }
            })
            return [burned, next]
          })
      })
    })
  )
}
