/**
 * The public catalogue: owners publish their guilds (when every condition is met, at most three
 * public guilds each), unpublish them and read why a guild is or is not shown; anyone searches the
 * listed guilds (online members first, then members), previews one and, signed in, joins it as if
 * invited or reports it. Enough open reports hide a guild (`auto_hidden`) at the moment the last
 * one arrives; staff set any state.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { CatalogueAudit } from "./CatalogueAudit.ts"
import { CatalogueGuilds, type GuildCard, type GuildFacts } from "./CatalogueGuilds.ts"
import { CatalogueStaff } from "./CatalogueStaff.ts"
import * as Categories from "./Categories.ts"
import { DiscoveryConfig } from "./DiscoveryConfig.ts"
import {
  ConditionsUnmet,
  JoinRefused,
  NotGuildOwner,
  NotInCatalogue,
  NotStaff,
  type PublicLimitReached,
  UnknownCategory
} from "./DiscoveryErrors.ts"
import { DiscoveryRepo, type Report } from "./DiscoveryRepo.ts"
import {
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  type Listing,
  MAX_PUBLIC_PER_OWNER,
  MAX_TAGS,
  OFFSET_MAX,
  PAGE_MAX,
  type StaffState,
  type State
} from "./Listing.ts"
import { OnlineCounts } from "./OnlineCounts.ts"
import { OwnerTwoFactor } from "./OwnerTwoFactor.ts"
import * as Requirements from "./Requirements.ts"
import * as Slugs from "./Slugs.ts"
import * as Words from "./Words.ts"
import { WordsRepo } from "./WordsRepo.ts"

/** A listed guild as a card or preview shows it. */
export interface Shown {
  readonly listing: Listing
  readonly guild: GuildCard
  readonly online: number
}

/** What the owner sees: the state, the card, and every condition with what to fix. */
export interface OwnerView {
  readonly guildId: Snowflake.Snowflake
  readonly state: State
  readonly listing: Option.Option<Listing>
  readonly requirements: Requirements.Evaluation
  readonly minimumSize: number
  readonly minimumAge: number
}

export interface Card {
  readonly category: string
  readonly tags: ReadonlyArray<string>
  readonly description: string
}

export interface Query {
  readonly q: string | null
  readonly category: string | null
  readonly limit: number
  readonly offset: number
}

/** The publication thresholds `GET /discovery/categories` answers, all integers. */
export type Limits = Readonly<Record<string, number>>

export class Discovery extends Context.Service<
  Discovery,
  {
    readonly limits: Effect.Effect<Limits>
    readonly search: (query: Query) => Effect.Effect<ReadonlyArray<Shown>>
    /** A listed guild by its slug or its id. */
    readonly shown: (
      key: { readonly slug: string } | { readonly guildId: Snowflake.Snowflake }
    ) => Effect.Effect<Shown, NotInCatalogue>
    /** Joins a listed guild as if invited; false when already a member. */
    readonly join: (
      userId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake
    ) => Effect.Effect<boolean, NotInCatalogue | JoinRefused>
    readonly ownerView: (
      ownerId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake
    ) => Effect.Effect<OwnerView, NotInCatalogue | NotGuildOwner>
    readonly publish: (
      ownerId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake,
      card: Card
    ) => Effect.Effect<
      OwnerView,
      NotInCatalogue | NotGuildOwner | UnknownCategory | ConditionsUnmet | PublicLimitReached
    >
    readonly unpublish: (
      ownerId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake
    ) => Effect.Effect<void, NotInCatalogue | NotGuildOwner>
    /** One report per user and guild; a repeat is accepted and not counted again. */
    readonly report: (
      userId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake,
      reason: string
    ) => Effect.Effect<void, NotInCatalogue>
    /** The user's reports (their data export). */
    readonly reportsBy: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Report>>
    /** Forgets the user's reports (account deletion). */
    readonly eraseReportsBy: (userId: Snowflake.Snowflake) => Effect.Effect<void>
    /** Staff: guilds in a state with their open reports, most reported first. */
    readonly queue: (
      staffId: Snowflake.Snowflake,
      state: StaffState | null,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Shown & { readonly reports: number }>, NotStaff>
    /** Staff: any state, with a reason; open reports are closed (they were looked at). */
    readonly setState: (
      staffId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake,
      state: StaffState,
      reason: string | null
    ) => Effect.Effect<void, NotStaff | NotInCatalogue>
    /** Staff: the disallowed words they edit (the operator's configured ones are not among them). */
    readonly words: (staffId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<string>, NotStaff>
    /** Staff: replaces the edited words (normalised, duplicates dropped); answers the new list. */
    readonly setWords: (
      staffId: Snowflake.Snowflake,
      words: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<string>, NotStaff>
    /** Every condition of a guild as it stands now (the catalogue check asks it); none when the guild is gone. */
    readonly evaluate: (listing: Listing) => Effect.Effect<Option.Option<Requirements.Evaluation>>
  }
>()("@veche/discovery/Discovery") {
  static readonly layer: Layer.Layer<
    Discovery,
    never,
    | DiscoveryRepo
    | WordsRepo
    | DiscoveryConfig
    | CatalogueGuilds
    | CatalogueStaff
    | CatalogueAudit
    | OnlineCounts
    | OwnerTwoFactor
  > = Layer.effect(
    Discovery,
    Effect.gen(function* () {
      const repo = yield* DiscoveryRepo
      const settings = yield* DiscoveryConfig
      const guilds = yield* CatalogueGuilds
      const online = yield* OnlineCounts
      const twoFactor = yield* OwnerTwoFactor
      const staff = yield* CatalogueStaff
      const audit = yield* CatalogueAudit
      const wordsRepo = yield* WordsRepo

      /** The settings with the staff-edited words added to the operator's. */
      const current = Effect.map(wordsRepo.list, (edited) =>
        edited.length === 0
          ? settings
          : { ...settings, disallowedWords: [...new Set([...settings.disallowedWords, ...edited])] }
      )

      /** Cards for these listings, in their order; a listing whose guild is gone is left out. */
      const show = Effect.fnUntraced(function* (listings: ReadonlyArray<Listing>) {
        const ids = listings.map((listing) => listing.guildId)
        const [cards, counts] = yield* Effect.all([guilds.cards(ids), online.counts(ids)], { concurrency: 2 })
        const shown: Array<Shown> = []
        for (const listing of listings) {
          const guild = cards.get(listing.guildId)
          if (guild === undefined) continue
          // A renamed guild: search follows the name from now on.
          if (guild.name !== listing.name) yield* repo.rename(listing.guildId, guild.name)
          shown.push({ listing: { ...listing, name: guild.name }, guild, online: counts.get(listing.guildId) ?? 0 })
        }
        return shown
      })

      const listed = (found: Option.Option<Listing>) =>
        Option.isSome(found) && found.value.state === "listed"
          ? Effect.succeed(found.value)
          : Effect.fail(new NotInCatalogue())

      const owned = Effect.fnUntraced(function* (ownerId: Snowflake.Snowflake, guildId: Snowflake.Snowflake) {
        const guild = yield* guilds.find(guildId)
        if (Option.isNone(guild)) return yield* new NotInCatalogue()
        if (guild.value.ownerId !== ownerId) return yield* new NotGuildOwner()
        return guild.value
      })

      const view = Effect.fnUntraced(function* (
        guild: GuildFacts,
        listing: Option.Option<Listing>,
        card: Requirements.CardText | null
      ) {
        const state: State = Option.match(listing, { onNone: () => "not_listed", onSome: (found) => found.state })
        const requirements = Requirements.evaluate({
          settings: yield* current,
          guild,
          ownerHasTwoFactor: yield* twoFactor.hasTwoFactor(guild.ownerId),
          card: card ?? Option.getOrNull(listing),
          state,
          now: yield* DateTime.now
        })
        return {
          guildId: guild.id,
          state,
          listing,
          requirements,
          minimumSize: settings.minMembers,
          minimumAge: settings.minAgeDays
        } satisfies OwnerView
      })

      const search = Spans.fn("Discovery.search")(function* (query: Query) {
        const candidates = yield* repo.search({
          q: query.q,
          category: query.category,
          limit: OFFSET_MAX + PAGE_MAX
        })
        const [members, present] = yield* Effect.all([guilds.memberCounts(candidates), online.counts(candidates)], {
          concurrency: 2
        })
        // Online members first, then members; the search's relevance breaks ties (a stable sort).
        const order = candidates
          .filter((id) => members.has(id))
          .sort(
            (a, b) => (present.get(b) ?? 0) - (present.get(a) ?? 0) || (members.get(b) ?? 0) - (members.get(a) ?? 0)
          )
          .slice(query.offset, query.offset + query.limit)
        const listings = yield* Effect.forEach(order, (id) => repo.find(id))
        return yield* show(listings.flatMap((found) => (Option.isSome(found) ? [found.value] : [])))
      })

      const shown = Spans.fn("Discovery.shown")(function* (
        key: { readonly slug: string } | { readonly guildId: Snowflake.Snowflake }
      ) {
        const listing =
          "slug" in key
            ? Slugs.isWellFormed(key.slug)
              ? yield* listed(yield* repo.findBySlug(key.slug))
              : yield* new NotInCatalogue()
            : yield* listed(yield* repo.find(key.guildId))
        const [first] = yield* show([listing])
        if (first === undefined) return yield* new NotInCatalogue()
        return first
      })

      const join = Spans.fn("Discovery.join")(function* (userId: Snowflake.Snowflake, guildId: Snowflake.Snowflake) {
        yield* listed(yield* repo.find(guildId))
        return yield* guilds
          .join(userId, guildId)
          .pipe(
            Effect.mapError((refusal): NotInCatalogue | JoinRefused =>
              refusal === "gone" ? new NotInCatalogue() : new JoinRefused({ reason: refusal })
            )
          )
      })

      const publish = Spans.fn("Discovery.publish")(function* (
        ownerId: Snowflake.Snowflake,
        guildId: Snowflake.Snowflake,
        card: Card
      ) {
        const guild = yield* owned(ownerId, guildId)
        if (!Categories.ids.includes(card.category)) return yield* new UnknownCategory()
        const current = yield* repo.find(guildId)
        const checked = yield* view(guild, current, card)
        if (!checked.requirements.sufficient) return yield* ConditionsUnmet.of(checked.requirements.unmet)
        const listing = yield* repo.publish(
          {
            guildId,
            ownerId,
            category: card.category,
            tags: card.tags,
            description: card.description,
            name: guild.name,
            slugs: Slugs.candidates(guild.name, guildId),
            now: yield* DateTime.now
          },
          MAX_PUBLIC_PER_OWNER
        )
        return yield* view(guild, Option.some(listing), card)
      })

      const requireStaff = (userId: Snowflake.Snowflake) =>
        Effect.flatMap(staff.isStaff(userId), (is) => (is ? Effect.void : Effect.fail(new NotStaff())))

      const queue = Spans.fn("Discovery.queue")(function* (
        staffId: Snowflake.Snowflake,
        state: StaffState | null,
        limit: number
      ) {
        yield* requireStaff(staffId)
        const listings = yield* repo.inState(state, limit)
        const [cards, reports] = yield* Effect.all([show(listings), repo.openReports(listings.map((l) => l.guildId))])
        return cards.map((card) => ({ ...card, reports: reports.get(card.listing.guildId) ?? 0 }))
      })

      const setState = Spans.fn("Discovery.setState")(function* (
        staffId: Snowflake.Snowflake,
        guildId: Snowflake.Snowflake,
        state: StaffState,
        reason: string | null
      ) {
        yield* requireStaff(staffId)
        const before = yield* repo.find(guildId)
        if (Option.isNone(before)) return yield* new NotInCatalogue()
        const changed = yield* repo.setState(guildId, state, reason, yield* DateTime.now)
        if (Option.isNone(changed)) return yield* new NotInCatalogue()
        yield* audit.record({ kind: "state", staffId, guildId, state, previous: before.value.state, reason })
      })

      const setWords = Spans.fn("Discovery.setWords")(function* (
        staffId: Snowflake.Snowflake,
        words: ReadonlyArray<string>
      ) {
        yield* requireStaff(staffId)
        const normalised = [...new Set(words.map((word) => Words.words(word).join(" ")).filter((word) => word !== ""))]
        const change = yield* wordsRepo.replace(normalised, staffId, yield* DateTime.now)
        if (change.added.length > 0 || change.removed.length > 0)
          yield* audit.record({ kind: "words", staffId, added: change.added, removed: change.removed })
        return yield* wordsRepo.list
      })

      const evaluate = Spans.fn("Discovery.evaluate")(function* (listing: Listing) {
        const guild = yield* guilds.find(listing.guildId)
        if (Option.isNone(guild)) return Option.none()
        const seen = yield* view(guild.value, Option.some(listing), null)
        return Option.some(seen.requirements)
      })

      return Discovery.of({
        words: (staffId) => Effect.andThen(requireStaff(staffId), wordsRepo.list),
        setWords,
        evaluate,
        limits: Effect.succeed({
          min_members: settings.minMembers,
          min_age_days: settings.minAgeDays,
          min_verification_level: settings.minVerificationLevel,
          rules_channel_required: settings.requireRulesChannel ? 1 : 0,
          owner_2fa_required: settings.requireOwnerTwoFactor ? 1 : 0,
          auto_hide_reports: settings.autoHideReports,
          max_public_per_owner: MAX_PUBLIC_PER_OWNER,
          description_min: DESCRIPTION_MIN,
          description_max: DESCRIPTION_MAX,
          max_tags: MAX_TAGS
        }),
        search,
        shown,
        join,
        ownerView: (ownerId, guildId) =>
          Effect.flatMap(owned(ownerId, guildId), (guild) =>
            Effect.flatMap(repo.find(guildId), (listing) => view(guild, listing, null))
          ),
        publish,
        unpublish: (ownerId, guildId) =>
          Effect.flatMap(owned(ownerId, guildId), () =>
            Effect.flatMap(DateTime.now, (now) => Effect.asVoid(repo.unpublish(guildId, now)))
          ),
        report: (userId, guildId, reason) =>
          Effect.flatMap(DateTime.now, (now) =>
            Effect.asVoid(repo.report({ guildId, userId, reason, now }, settings.autoHideReports))
          ),
        reportsBy: repo.reportsBy,
        eraseReportsBy: repo.eraseReportsBy,
        queue,
        setState
      })
    })
  )
}
