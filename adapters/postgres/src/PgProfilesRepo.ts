/**
 * ProfilesRepo on PostgreSQL (table `user_profiles`, migration 0009). A change is one statement:
 * the defaults are inserted and the given fields set in the same `INSERT … ON CONFLICT DO UPDATE`,
 * each field from its own parameter, so concurrent changes of different fields both land.
 */
import { Profile, ProfilesRepo } from "@veche/users"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"

const Row = Schema.Struct({
  bio: Schema.NullOr(Schema.String),
  avatar: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  status: Profile.Status,
  custom_status: Schema.NullOr(Schema.String),
  theme: Schema.String,
  locale: Schema.String,
  guild_order: Schema.Array(Schema.String)
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

const toProfile = (row: typeof Row.Type): Profile.Profile => ({
  bio: row.bio,
  avatar: row.avatar,
  banner: row.banner,
  status: row.status,
  customStatus: row.custom_status === null ? null : { text: row.custom_status },
  theme: row.theme,
  locale: row.locale,
  guildOrder: row.guild_order
})

const COLUMNS = "bio, avatar, banner, status, custom_status, theme, locale, guild_order"

export const layer: Layer.Layer<ProfilesRepo.ProfilesRepo, never, SqlClient.SqlClient> = Layer.effect(
  ProfilesRepo.ProfilesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const one = (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
      query.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => (rows[0] === undefined ? Profile.DEFAULT : toProfile(rows[0]))),
        Effect.orDie
      )

    const get: ProfilesRepo.ProfilesRepo["Service"]["get"] = (userId) =>
      one(sql`SELECT ${columns} FROM user_profiles WHERE user_id = ${userId}`)

    const update: ProfilesRepo.ProfilesRepo["Service"]["update"] = (userId, change) => {
      // The row a first change creates: the defaults with the change applied.
      const profile = Profile.apply(Profile.DEFAULT, change)
      // Only the given fields are overwritten on an existing row.
      const given = (key: keyof Profile.Profile) => change[key] !== undefined
      const set = [
        given("bio") && sql`bio = EXCLUDED.bio`,
        given("avatar") && sql`avatar = EXCLUDED.avatar`,
        given("banner") && sql`banner = EXCLUDED.banner`,
        given("status") && sql`status = EXCLUDED.status`,
        given("customStatus") && sql`custom_status = EXCLUDED.custom_status`,
        given("theme") && sql`theme = EXCLUDED.theme`,
        given("locale") && sql`locale = EXCLUDED.locale`,
        given("guildOrder") && sql`guild_order = EXCLUDED.guild_order`
      ].filter((fragment) => fragment !== false)
      return one(sql`
        INSERT INTO user_profiles ${sql.insert({
          user_id: userId,
          bio: profile.bio,
          avatar: profile.avatar,
          banner: profile.banner,
          status: profile.status,
          custom_status: profile.customStatus === null ? null : profile.customStatus.text,
          theme: profile.theme,
          locale: profile.locale,
          guild_order: JSON.stringify(profile.guildOrder)
        })}
        ON CONFLICT (user_id) DO UPDATE SET ${set.length === 0 ? sql`user_id = EXCLUDED.user_id` : sql.csv(set)}
        RETURNING ${columns}`)
    }

    return ProfilesRepo.ProfilesRepo.of({ get, update })
  })
)
