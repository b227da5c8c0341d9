/**
 * What the staff statistics read from domains that answer them through these ports: the catalogue
 * and guild records (names, member counts, listed guilds), and the sources that arrive with later
 * work. Each of the latter has a `layerNone` answering zeros (or null where the spec allows it) until
 * its domain answers: presence (online now), voice, billing (money, referrals, SMS balance) and push.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer } from "effect"

export interface GuildFacts {
  readonly name: string
  readonly members: number
}

/** Guild names and member counts, and how many guilds the catalogue lists (answered in the kit). */
export class StatsGuilds extends Context.Service<
  StatsGuilds,
  {
    /** The guilds that still exist among `guildIds`, with their facts. */
    readonly facts: (
      guildIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, GuildFacts>>
    readonly listed: Effect.Effect<number>
  }
>()("@veche/moderation/StatsGuilds") {}

/** Users online now across the platform (the gateway's presence answers it; until then 0). */
export class OnlineNow extends Context.Service<OnlineNow, { readonly now: Effect.Effect<number> }>()(
  "@veche/moderation/OnlineNow"
) {
  static readonly layerNone: Layer.Layer<OnlineNow> = Layer.succeed(OnlineNow, OnlineNow.of({ now: Effect.succeed(0) }))
}

export interface Voice {
  readonly now: number
  readonly streaming_now: number
  readonly minutes_day: number
  readonly stream_minutes_day: number
  readonly call_minutes_day: number
}

/** Voice use (no voice yet: zeros). */
export class VoiceStats extends Context.Service<
  VoiceStats,
  { readonly read: (today: string) => Effect.Effect<Voice> }
>()("@veche/moderation/VoiceStats") {
  static readonly layerNone: Layer.Layer<VoiceStats> = Layer.succeed(
    VoiceStats,
    VoiceStats.of({
      read: () =>
        Effect.succeed({ now: 0, streaming_now: 0, minutes_day: 0, stream_minutes_day: 0, call_minutes_day: 0 })
    })
  )
}

export interface Money {
  readonly plus_active: number
  readonly boosts: number
  readonly paid_month_rub: number
  readonly referrals_qualified: number
  readonly referrals_week: number
  /** The SMS provider's balance in roubles; null when unknown (no provider reports one). */
  readonly sms_balance: number | null
}

/**
 * Paid plans, boosts, payments, referrals and the SMS balance (billing answers it; until then zeros
 * and a null balance). `today` is the Moscow day the statistics are for.
 */
export class MoneyStats extends Context.Service<
  MoneyStats,
  { readonly read: (today: string) => Effect.Effect<Money> }
>()("@veche/moderation/MoneyStats") {
  static readonly layerNone: Layer.Layer<MoneyStats> = Layer.succeed(
    MoneyStats,
    MoneyStats.of({
      read: () =>
        Effect.succeed({
          plus_active: 0,
          boosts: 0,
          paid_month_rub: 0,
          referrals_qualified: 0,
          referrals_week: 0,
          sms_balance: null
        })
    })
  )
}

/** Users with push notifications registered (no push yet: 0). */
export class PushUsers extends Context.Service<PushUsers, { readonly count: Effect.Effect<number> }>()(
  "@veche/moderation/PushUsers"
) {
  static readonly layerNone: Layer.Layer<PushUsers> = Layer.succeed(
    PushUsers,
    PushUsers.of({ count: Effect.succeed(0) })
  )
}
