/**
 * The public server catalogue: categories and limits, search, a listed guild's card and preview
 * (anyone: `discoveryPublic`), and what takes a user (`discovery`): joining from the catalogue,
 * reporting a card, and the owner's publication settings. Pure data.
 */
import {
  AccountRestricted,
  Banned,
  BotsCannotUseThisEndpoint,
  Conflict,
  InvalidFormBody,
  MaxGuildsReached,
  MissingAccess,
  MissingPermissions,
  UnknownGuild,
  VerificationRequired
} from "@veche/errors"
import * as GuildSchemas from "@veche/guilds/GuildSchemas"
import * as Snowflake from "@veche/platform/Snowflake"
import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"
import { GuildParams } from "./GuildRoutes.ts"

export const Category = Schema.Struct({ id: Schema.String, name: Schema.String })

export const CategoriesView = Schema.Struct({
  categories: Schema.Array(Category),
  /** Every publication threshold by name (0 where a condition is off). */
  limits: Schema.Record(Schema.String, Schema.Int)
})

/** A listed guild as the catalogue shows it. */
export const DiscoveryCard = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  description: Schema.String,
  category: Category,
  tags: Schema.Array(Schema.String),
  features: Schema.Array(Schema.String),
  approximate_member_count: Schema.Int,
  approximate_presence_count: Schema.Int,
  premium_tier: Schema.Int,
  slug: Schema.String
})

/** The staff queue's card: its state and open reports besides. */
export const QueuedCard = Schema.Struct({
  ...DiscoveryCard.fields,
  state: Schema.Literals(["listed", "auto_hidden", "removed"]),
  reason: Schema.NullOr(Schema.String),
  reports: Schema.Int
})

/** The mirrored platform's guild preview object. */
export const GuildPreview = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  splash: Schema.Null,
  discovery_splash: Schema.Null,
  emojis: Schema.Array(Schema.Unknown),
  features: Schema.Array(Schema.String),
  approximate_member_count: Schema.Int,
  approximate_presence_count: Schema.Int,
  description: Schema.String,
  stickers: Schema.Array(Schema.Unknown)
})

/** Each publication condition: met or not (disallowed words found, by field). */
export const Requirements = Schema.Struct({
  size: Schema.Boolean,
  age: Schema.Boolean,
  verification_level: Schema.Boolean,
  valid_rules_channel: Schema.Boolean,
  protected: Schema.Boolean,
  safe_environment: Schema.Boolean,
  nsfw_properties: Schema.Record(Schema.String, Schema.Array(Schema.String)),
  sufficient: Schema.Boolean
})

/** The owner's view: the state, the card as published, and every condition with what to fix. */
export const DiscoverySettings = Schema.Struct({
  guild_id: Snowflake.Snowflake,
  state: Schema.Literals(["not_listed", "listed", "auto_hidden", "removed"]),
  slug: Schema.NullOr(Schema.String),
  category: Schema.NullOr(Category),
  tags: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  /** Why staff or the reports rule hid or removed it. */
  reason: Schema.NullOr(Schema.String),
  requirements: Requirements,
  /** What to fix, one line per unmet condition. */
  unmet: Schema.Array(Schema.Struct({ condition: Schema.String, message: Schema.String })),
  minimum_size: Schema.Int,
  minimum_age: Schema.Int
})

const Tag = Fields.lengthBetween(1, 30)

export const PublishBody = Schema.Struct({
  category: Fields.lengthBetween(1, 64),
  tags: Schema.optionalKey(Fields.arrayAtMost(Tag, 3)),
  description: Fields.lengthBetween(40, 300)
})

export const ReportBody = Schema.Struct({ reason: Fields.lengthBetween(1, 200) })

export const SearchQuery = {
  q: Schema.optionalKey(Fields.lengthAtMost(100)),
  category: Schema.optionalKey(Fields.lengthAtMost(64)),
  limit: Fields.queryLimit(1, 48, 24),
  offset: Fields.queryIntBetween(0, 2999).pipe(Schema.withDecodingDefaultKey(Effect.succeed("0")))
}

export const SlugParams = { slug: Schema.String }

const StaffState = Schema.Literals(["listed", "auto_hidden", "removed"])

export const QueueQuery = {
  state: Schema.optionalKey(StaffState),
  limit: Fields.queryLimit(1, 100, 50)
}

export const SetStateBody = Schema.Struct({
  state: StaffState,
  reason: Schema.optionalKey(Schema.NullOr(Fields.lengthAtMost(200)))
})

/** The staff-edited disallowed words: at most 500, each 1–50 characters (a word or a run of words). */
export const WORDS_MAX = 500
export const WordsBody = Schema.Struct({ words: Fields.arrayAtMost(Fields.lengthBetween(1, 50), WORDS_MAX) })
export const WordsView = Schema.Struct({ words: Schema.Array(Schema.String) })

export class DiscoveryPublicApi extends HttpApiGroup.make("discoveryPublic")
  .add(
    HttpApiEndpoint.get("discoveryCategories", "/discovery/categories", { success: CategoriesView }),
    HttpApiEndpoint.get("discoveryGuilds", "/discovery/guilds", {
      query: SearchQuery,
      success: Schema.Struct({ guilds: Schema.Array(DiscoveryCard) })
    }),
    HttpApiEndpoint.get("discoveryGuild", "/discovery/guilds/:slug", {
      params: SlugParams,
      success: GuildPreview,
      error: UnknownGuild
    }),
    HttpApiEndpoint.get("guildPreview", "/guilds/:guild_id/preview", {
      params: GuildParams,
      success: GuildPreview,
      error: UnknownGuild
    })
  )
  .annotate(
    OpenApi.Description,
    "The public server catalogue: categories and publication limits, search (online members first), a listed guild's preview."
  ) {}

const ownerErrors = [BotsCannotUseThisEndpoint, UnknownGuild, MissingAccess] as const

export class DiscoveryApi extends HttpApiGroup.make("discovery")
  .add(
    // Joins without an invitation, with the invitation's checks.
    HttpApiEndpoint.post("discoveryJoin", "/discovery/guilds/:guild_id/join", {
      params: GuildParams,
      success: GuildSchemas.GuildCreate,
      error: [
        BotsCannotUseThisEndpoint,
        UnknownGuild,
        Banned,
        MaxGuildsReached,
        VerificationRequired,
        AccountRestricted
      ]
    }),
    HttpApiEndpoint.post("discoveryReport", "/discovery/guilds/:guild_id/report", {
      params: GuildParams,
      payload: ReportBody,
      success: HttpApiSchema.NoContent,
      error: [BotsCannotUseThisEndpoint, UnknownGuild, InvalidFormBody]
    }),
    HttpApiEndpoint.get("getDiscoverySettings", "/guilds/:guild_id/discovery", {
      params: GuildParams,
      success: DiscoverySettings,
      error: ownerErrors
    }),
    HttpApiEndpoint.put("publishGuild", "/guilds/:guild_id/discovery", {
      params: GuildParams,
      payload: PublishBody,
      success: DiscoverySettings,
      error: [...ownerErrors, InvalidFormBody, Conflict]
    }),
    HttpApiEndpoint.delete("unpublishGuild", "/guilds/:guild_id/discovery", {
      params: GuildParams,
      success: HttpApiSchema.NoContent,
      error: ownerErrors
    }),
    // Platform staff: the queue (every state unless one is asked for) and any state with a reason.
    HttpApiEndpoint.get("discoveryQueue", "/moderation/discovery", {
      query: QueueQuery,
      success: Schema.Struct({ guilds: Schema.Array(QueuedCard) }),
      error: [BotsCannotUseThisEndpoint, MissingPermissions]
    }),
    // Declared before the guild route: "words" is no guild id.
    HttpApiEndpoint.get("discoveryWords", "/moderation/discovery/words", {
      success: WordsView,
      error: [BotsCannotUseThisEndpoint, MissingPermissions]
    }),
    HttpApiEndpoint.put("setDiscoveryWords", "/moderation/discovery/words", {
      payload: WordsBody,
      success: WordsView,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, InvalidFormBody]
    }),
    HttpApiEndpoint.patch("setDiscoveryState", "/moderation/discovery/:guild_id", {
      params: GuildParams,
      payload: SetStateBody,
      success: HttpApiSchema.NoContent,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownGuild, InvalidFormBody]
    })
  )
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "The catalogue for signed-in users: join a listed guild, report one, an owner's publication settings, and the staff queue."
  ) {}
