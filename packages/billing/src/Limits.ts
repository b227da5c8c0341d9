/**
 * What Plus and boosts change: a user's limits (UserLimits, free and Plus) and a guild's limits by
 * boost tier (GuildLimits). The numbers mirror the platform the API copies (its Nitro and its
 * tiered boosting, see shared/docs/provider-notes.md §4); Plus's upload size is the operator's.
 */

const MiB = 1024 * 1024

export interface UserLimits {
  readonly uploadBytes: number
  readonly messageLength: number
  readonly maxGuilds: number
  readonly customEmojiEverywhere: boolean
  readonly animatedAvatar: boolean
  readonly profileBanner: boolean
  /**
   * What the user object's `premium_type` says while these limits hold, in the mirrored platform's
   * numbers: 0 none, 2 its full paid plan (Nitro), whose features Plus has.
   */
  readonly premiumType: 0 | 2
}

export const FREE: UserLimits = {
  uploadBytes: 10 * MiB,
  messageLength: 2000,
  maxGuilds: 100,
  customEmojiEverywhere: false,
  animatedAvatar: false,
  profileBanner: false,
  premiumType: 0
}

/** Plus with the operator's upload size (default 50 MiB). */
export const plus = (uploadBytes: number = 50 * MiB): UserLimits => ({
  uploadBytes,
  messageLength: 4000,
  maxGuilds: 200,
  customEmojiEverywhere: true,
  animatedAvatar: true,
  profileBanner: true,
  premiumType: 2
})

export type Tier = 0 | 1 | 2 | 3

export interface GuildLimits {
  readonly tier: Tier
  readonly boostsRequired: number
  /** Static and animated emoji are counted apart, each up to this many (as the mirrored platform does). */
  readonly emojiStatic: number
  readonly emojiAnimated: number
  readonly stickers: number
  readonly uploadBytes: number
  readonly bitrateMax: number
  readonly vanityUrl: boolean
  readonly animatedIcon: boolean
  readonly banner: boolean
}

/** Boosts needed for tiers 1, 2 and 3. */
export const TIER_BOOSTS = [2, 7, 14] as const

export const TIERS: ReadonlyArray<GuildLimits> = [
  {
    tier: 0,
    boostsRequired: 0,
    emojiStatic: 50,
    emojiAnimated: 50,
    stickers: 5,
    uploadBytes: 10 * MiB,
    bitrateMax: 96_000,
    vanityUrl: false,
    animatedIcon: false,
    banner: false
  },
  {
    tier: 1,
    boostsRequired: 2,
    emojiStatic: 100,
    emojiAnimated: 100,
    stickers: 15,
    uploadBytes: 10 * MiB,
    bitrateMax: 128_000,
    vanityUrl: false,
    animatedIcon: true,
    banner: false
  },
  {
    tier: 2,
    boostsRequired: 7,
    emojiStatic: 150,
    emojiAnimated: 150,
    stickers: 30,
    uploadBytes: 50 * MiB,
    bitrateMax: 256_000,
    vanityUrl: false,
    animatedIcon: true,
    banner: true
  },
  {
    tier: 3,
    boostsRequired: 14,
    emojiStatic: 250,
    emojiAnimated: 250,
    stickers: 60,
    uploadBytes: 100 * MiB,
    bitrateMax: 384_000,
    vanityUrl: true,
    animatedIcon: true,
    banner: true
  }
]

/** The tier a number of active boosts reaches. */
export const tierOf = (boosts: number): Tier => (boosts >= 14 ? 3 : boosts >= 7 ? 2 : boosts >= 2 ? 1 : 0)

export const guildLimits = (boosts: number): GuildLimits => TIERS[tierOf(boosts)] ?? (TIERS[0] as GuildLimits)

/** Boosts the next tier needs, or null at tier 3. */
export const nextTierAt = (boosts: number): number | null => TIER_BOOSTS.find((needed) => needed > boosts) ?? null
