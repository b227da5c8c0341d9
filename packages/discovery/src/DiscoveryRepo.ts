/**
 * The port to the catalogue's tables (listings and reports), and its in-memory adapter. The
 * per-owner limit is settled in the same step as the publication (PostgreSQL serialises an
 * owner's publications), so five concurrent publications past the limit cannot all pass; a report
 * and the auto-hide rule it may trigger are one step too.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import { NotInCatalogue, PublicLimitReached } from "./DiscoveryErrors.ts"
import { isPublic, type Listing, type Publication, type StaffState } from "./Listing.ts"
import * as TextMatch from "./TextMatch.ts"

export interface SearchFilter {
  /** Words to look for in the name, description and tags; null lists everything. */
  readonly q: string | null
  readonly category: string | null
  /** At most this many ids, best first. */
  readonly limit: number
}

/** A user's report of a listed guild. */
export interface Report {
  readonly guildId: Snowflake.Snowflake
  readonly reason: string
  readonly createdAt: DateTime.Utc
}

/** A listing the catalogue check looks at: listed, or hidden by the check itself. */
export const isCheckable = (listing: Listing): boolean =>
  listing.state === "listed" || (listing.state === "auto_hidden" && listing.hiddenFor === "conditions")

/** Why the reports rule hides a guild (shown to the owner in DiscoverySettings). */
export const AUTO_HIDE_REASON = "Hidden automatically: several users reported this server. Staff will review it."

export class DiscoveryRepo extends Context.Service<
  DiscoveryRepo,
  {
    readonly find: (guildId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Listing>>
    readonly findBySlug: (slug: string) => Effect.Effect<Option.Option<Listing>>
    /**
     * Lists the guild (or updates its card): it keeps its slug, or takes the first free of
     * `publication.slugs`. An auto-hidden guild stays hidden and a removed one removed (only staff
     * lift those). Refused when the owner already has `maxPublic` other public guilds.
     */
    readonly publish: (publication: Publication, maxPublic: number) => Effect.Effect<Listing, PublicLimitReached>
    /** Listed or auto-hidden → not listed (removed stays removed); none when never published. */
    readonly unpublish: (guildId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<Option.Option<Listing>>
    /** Keeps the searchable name in step with the guild's. */
    readonly rename: (guildId: Snowflake.Snowflake, name: string) => Effect.Effect<void>
    /** Listed guilds matching the filter, most relevant first (without words: most recently updated). */
    readonly search: (filter: SearchFilter) => Effect.Effect<ReadonlyArray<Snowflake.Snowflake>>
    /**
     * Records the user's report of a listed guild (one per user and guild: a repeat changes
     * nothing) and, when `hideAt` > 0 and the guild now has that many open reports, hides it.
     */
    readonly report: (
      report: {
        readonly guildId: Snowflake.Snowflake
        readonly userId: Snowflake.Snowflake
        readonly reason: string
        readonly now: DateTime.Utc
      },
      hideAt: number
    ) => Effect.Effect<{ readonly counted: boolean; readonly hidden: boolean }, NotInCatalogue>
    /** Staff set the state (with an optional reason); open reports are closed. None when never published. */
    readonly setState: (
      guildId: Snowflake.Snowflake,
      state: StaffState,
      reason: string | null,
      now: DateTime.Utc
    ) => Effect.Effect<Option.Option<Listing>>
    /** Guilds in a state, or in any staff state (staff's queue): most open reports first, then most recently changed. */
    readonly inState: (state: StaffState | null, limit: number) => Effect.Effect<ReadonlyArray<Listing>>
    /** How many guilds the catalogue lists now (state `listed`; the staff statistics). */
    readonly listedCount: Effect.Effect<number>
    /** The user's reports, oldest first (their data export). */
    readonly reportsBy: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Report>>
    /** Deletes the user's reports (account deletion); counts drop with them, states stay. */
    readonly eraseReportsBy: (userId: Snowflake.Snowflake) => Effect.Effect<void>
    /**
     * The catalogue check's claim: up to `limit` checkable listings (`isCheckable`) not checked
     * since `cutoff`, marked checked at `now`, least recently checked first. Concurrent claims
     * (other nodes) get other rows.
     */
    readonly claimDue: (cutoff: DateTime.Utc, now: DateTime.Utc, limit: number) => Effect.Effect<ReadonlyArray<Listing>>
    /**
     * Conditions unmet: a listed guild (or one the check already hid) becomes `auto_hidden` for
     * `conditions` with this reason. False when it was in no such state (the owner or staff
     * changed it meanwhile: their change stands).
     */
    readonly hideForConditions: (
      guildId: Snowflake.Snowflake,
      reason: string,
      now: DateTime.Utc
    ) => Effect.Effect<boolean>
    /** Conditions met again: a guild the check hid is listed; false when it is not in that state. */
    readonly relist: (guildId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<boolean>
    /** Open reports per guild (those without any are left out). */
    readonly openReports: (
      guildIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, number>>
  }
>()("@veche/discovery/DiscoveryRepo") {
  static readonly layerMemory: Layer.Layer<DiscoveryRepo> = Layer.effect(
    DiscoveryRepo,
    Effect.gen(function* () {
      const listings = yield* Ref.make(new Map<string, Listing>())
      // guild id → when the catalogue check last claimed it
      const checked = yield* Ref.make(new Map<string, number>())
      // guild id → reporter id → open
      const reports = yield* Ref.make(new Map<string, Map<string, boolean>>())
      // reporter id → their reports, oldest first
      const byUser = yield* Ref.make(new Map<string, ReadonlyArray<Report>>())
      const change = (guildId: Snowflake.Snowflake, f: (listing: Listing) => Listing) =>
        Ref.modify(listings, (all): [Option.Option<Listing>, Map<string, Listing>] => {
          const found = all.get(guildId)
          if (found === undefined) return [Option.none(), all]
          const next = f(found)
          return [Option.some(next), new Map(all).set(guildId, next)]
        })
      const closeReports = (guildId: Snowflake.Snowflake) =>
        Ref.update(reports, (all) => {
          const of = all.get(guildId)
          if (of === undefined) return all
          return new Map(all).set(guildId, new Map([...of.keys()].map((user) => [user, false])))
        })
      const openCount = (all: Map<string, Map<string, boolean>>, guildId: string) =>
        [...(all.get(guildId)?.values() ?? [])].filter(Boolean).length

      return DiscoveryRepo.of({
        find: (guildId) => Effect.map(Ref.get(listings), (all) => Option.fromNullishOr(all.get(guildId))),
        findBySlug: (slug) =>
          Effect.map(Ref.get(listings), (all) => Option.fromNullishOr([...all.values()].find((l) => l.slug === slug))),
        publish: (publication, maxPublic) =>
          Ref.modify(listings, (all): [Effect.Effect<Listing, PublicLimitReached>, Map<string, Listing>] => {
            const existing = all.get(publication.guildId)
            const others = [...all.values()].filter(
              (listing) =>
                listing.ownerId === publication.ownerId &&
                listing.guildId !== publication.guildId &&
                isPublic(listing.state)
            ).length
            const alreadyPublic = existing !== undefined && isPublic(existing.state)
            if (!alreadyPublic && others >= maxPublic) return [Effect.fail(new PublicLimitReached()), all]
            const taken = new Set([...all.values()].map((listing) => listing.slug))
            const slug =
              existing?.slug ?? publication.slugs.find((candidate) => !taken.has(candidate)) ?? publication.guildId
            const state = existing === undefined || existing.state === "not_listed" ? "listed" : existing.state
            const listing: Listing = {
              guildId: publication.guildId,
              ownerId: publication.ownerId,
              slug,
              state,
              category: publication.category,
              tags: publication.tags,
              description: publication.description,
              name: publication.name,
              reason: state === "listed" ? null : (existing?.reason ?? null),
              hiddenFor: state === "auto_hidden" ? (existing?.hiddenFor ?? null) : null,
              updatedAt: publication.now
            }
            return [Effect.succeed(listing), new Map(all).set(listing.guildId, listing)]
          }).pipe(Effect.flatten),
        unpublish: (guildId, now) =>
          change(guildId, (listing) =>
            listing.state === "removed"
              ? listing
              : { ...listing, state: "not_listed", reason: null, hiddenFor: null, updatedAt: now }
          ),
        rename: (guildId, name) => Effect.asVoid(change(guildId, (listing) => ({ ...listing, name }))),
        search: (filter) =>
          Effect.map(Ref.get(listings), (all) => {
            const shown = [...all.values()].filter(
              (listing) =>
                listing.state === "listed" && (filter.category === null || listing.category === filter.category)
            )
            const ranked =
              filter.q === null
                ? shown.map((listing) => ({ listing, score: DateTime.toEpochMillis(listing.updatedAt) }))
                : shown
                    .map((listing) => ({
                      listing,
                      score: TextMatch.score(
                        filter.q ?? "",
                        `${listing.name} ${listing.description} ${listing.tags.join(" ")}`
                      )
                    }))
                    .filter(({ score }) => score > 0)
            return ranked
              .sort((a, b) => b.score - a.score || (a.listing.guildId < b.listing.guildId ? -1 : 1))
              .slice(0, filter.limit)
              .map(({ listing }) => listing.guildId)
          }),
        report: (report, hideAt) =>
          Effect.gen(function* () {
            const listing = (yield* Ref.get(listings)).get(report.guildId)
            if (listing === undefined || listing.state !== "listed") return yield* new NotInCatalogue()
            const counted = yield* Ref.modify(reports, (all): [boolean, Map<string, Map<string, boolean>>] => {
              const of = all.get(report.guildId) ?? new Map<string, boolean>()
              if (of.has(report.userId)) return [false, all]
              return [true, new Map(all).set(report.guildId, new Map(of).set(report.userId, true))]
            })
            if (counted)
              yield* Ref.update(byUser, (all) =>
                new Map(all).set(report.userId, [
                  ...(all.get(report.userId) ?? []),
                  { guildId: report.guildId, reason: report.reason, createdAt: report.now }
                ])
              )
            const open = openCount(yield* Ref.get(reports), report.guildId)
            if (!counted || hideAt <= 0 || open < hideAt) return { counted, hidden: false }
            const hidden = yield* change(report.guildId, (current) =>
              current.state === "listed"
                ? {
                    ...current,
                    state: "auto_hidden",
                    reason: AUTO_HIDE_REASON,
                    hiddenFor: "reports",
                    updatedAt: report.now
                  }
                : current
            )
            return { counted, hidden: Option.exists(hidden, (current) => current.state === "auto_hidden") }
          }),
        setState: (guildId, state, reason, now) =>
          Effect.tap(
            change(guildId, (listing) => ({
              ...listing,
              state,
              reason,
              hiddenFor: state === "auto_hidden" ? "staff" : null,
              updatedAt: now
            })),
            (changed) => (Option.isSome(changed) ? closeReports(guildId) : Effect.void)
          ),
        listedCount: Effect.map(
          Ref.get(listings),
          (all) => [...all.values()].filter((listing) => listing.state === "listed").length
        ),
        inState: (state, limit) =>
          Effect.map(Effect.all([Ref.get(listings), Ref.get(reports)]), ([all, reported]) =>
            [...all.values()]
              .filter((listing) => (state === null ? listing.state !== "not_listed" : listing.state === state))
              .map((listing) => ({ listing, open: openCount(reported, listing.guildId) }))
              .sort(
                (a, b) =>
                  b.open - a.open ||
                  DateTime.toEpochMillis(b.listing.updatedAt) - DateTime.toEpochMillis(a.listing.updatedAt)
              )
              .slice(0, limit)
              .map(({ listing }) => listing)
          ),
        reportsBy: (userId) => Effect.map(Ref.get(byUser), (all) => all.get(userId) ?? []),
        eraseReportsBy: (userId) =>
          Effect.gen(function* () {
            const mine = (yield* Ref.get(byUser)).get(userId) ?? []
            yield* Ref.update(byUser, (all) => {
              const next = new Map(all)
              next.delete(userId)
              return next
            })
            yield* Ref.update(reports, (all) => {
              const next = new Map(all)
              for (const { guildId } of mine) {
                const of = new Map(next.get(guildId))
                of.delete(userId)
                next.set(guildId, of)
              }
              return next
            })
          }),
        claimDue: (cutoff, now, limit) =>
          Effect.gen(function* () {
            const all = yield* Ref.get(listings)
            const last = yield* Ref.get(checked)
            const due = [...all.values()]
              .filter(
                (listing) => isCheckable(listing) && (last.get(listing.guildId) ?? -1) < DateTime.toEpochMillis(cutoff)
              )
              .sort(
                (a, b) => (last.get(a.guildId) ?? -1) - (last.get(b.guildId) ?? -1) || (a.guildId < b.guildId ? -1 : 1)
              )
              .slice(0, limit)
            yield* Ref.update(checked, (marks) => {
              const next = new Map(marks)
              for (const listing of due) next.set(listing.guildId, DateTime.toEpochMillis(now))
              return next
            })
            return due
          }),
        hideForConditions: (guildId, reason, now) =>
          Effect.map(
            change(guildId, (listing) =>
              isCheckable(listing)
                ? { ...listing, state: "auto_hidden", reason, hiddenFor: "conditions", updatedAt: now }
                : listing
            ),
            (changed) => Option.exists(changed, (listing) => listing.hiddenFor === "conditions")
          ),
        relist: (guildId, now) =>
          Effect.map(
            Ref.modify(listings, (all): [boolean, Map<string, Listing>] => {
              const found = all.get(guildId)
              if (found === undefined || found.state !== "auto_hidden" || found.hiddenFor !== "conditions")
                return [false, all]
              return [
                true,
                new Map(all).set(guildId, { ...found, state: "listed", reason: null, hiddenFor: null, updatedAt: now })
              ]
            }),
            (done) => done
          ),
        openReports: (guildIds) =>
          Effect.map(Ref.get(reports), (all) => {
            const counts = new Map<Snowflake.Snowflake, number>()
            for (const guildId of guildIds) {
              const open = openCount(all, guildId)
              if (open > 0) counts.set(guildId, open)
            }
            return counts
          })
      })
    })
  )
}
