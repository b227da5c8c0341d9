/**
 * The publication conditions, evaluated from what the catalogue knows of the guild: each is met
 * or names what to fix. Conditions turned off by configuration are always met. Names follow the
 * mirrored platform's discovery requirements object where it has one (size, age, protected,
 * valid_rules_channel, nsfw_properties, safe_environment) and add `verification_level`.
 */
import { DateTime, Duration } from "effect"
import type { GuildFacts } from "./CatalogueGuilds.ts"
import type { Settings } from "./DiscoveryConfig.ts"
import type { State } from "./Listing.ts"
import * as Words from "./Words.ts"

/** The card text the owner sends (or last sent): checked for disallowed words too. */
export interface CardText {
  readonly description: string
  readonly tags: ReadonlyArray<string>
}

export interface Unmet {
  readonly condition: string
  readonly message: string
}

/** Disallowed words found, per field (empty when clean). */
export type Flagged = Partial<Record<"name" | "description" | "tags" | "channel_names", ReadonlyArray<string>>>

export interface Evaluation {
  readonly size: boolean
  readonly age: boolean
  readonly verification_level: boolean
  readonly valid_rules_channel: boolean
  readonly protected: boolean
  readonly safe_environment: boolean
  readonly nsfw_properties: Flagged
  readonly sufficient: boolean
  readonly unmet: ReadonlyArray<Unmet>
}

const DAY = Duration.days(1)

export const evaluate = (input: {
  readonly settings: Settings
  readonly guild: GuildFacts
  readonly ownerHasTwoFactor: boolean
  readonly card: CardText | null
  readonly state: State
  readonly now: DateTime.Utc
}): Evaluation => {
  const { settings, guild, card } = input
  const unmet: Array<Unmet> = []
  const check = (condition: string, met: boolean, message: string) => {
    if (!met) unmet.push({ condition, message })
    return met
  }
  const ageDays = Math.floor(Duration.toMillis(DateTime.distance(guild.createdAt, input.now)) / Duration.toMillis(DAY))
  const size = check(
    "size",
    guild.memberCount >= settings.minMembers,
    `The server needs at least ${settings.minMembers} members (it has ${guild.memberCount}).`
  )
  const age = check(
    "age",
    ageDays >= settings.minAgeDays,
    `The server must be at least ${settings.minAgeDays} days old (it is ${ageDays}).`
  )
  const verification = check(
    "verification_level",
    guild.verificationLevel >= settings.minVerificationLevel,
    `Set the verification level to at least ${settings.minVerificationLevel}.`
  )
  const rules = check(
    "valid_rules_channel",
    !settings.requireRulesChannel || guild.rulesChannelId !== null,
    "Choose a rules channel."
  )
  const protectedMet = check(
    "protected",
    !settings.requireOwnerTwoFactor || input.ownerHasTwoFactor,
    "The owner must enable two-factor authentication."
  )
  const safe = check(
    "safe_environment",
    input.state !== "removed",
    "Platform staff removed this server from the catalogue."
  )
  const flagged: { -readonly [K in keyof Flagged]: Flagged[K] } = {}
  const scan = (field: keyof Flagged, text: string) => {
    const hits = Words.found(text, settings.disallowedWords)
    if (hits.length > 0) flagged[field] = [...new Set([...(flagged[field] ?? []), ...hits])]
  }
  scan("name", guild.name)
  if (card !== null) {
    scan("description", card.description)
    scan("tags", card.tags.join(" , "))
  }
  for (const channel of guild.channelNames) scan("channel_names", channel.replaceAll(/[-_]/g, " "))
  for (const [field, hits] of Object.entries(flagged))
    unmet.push({ condition: "nsfw_properties", message: `Disallowed words in ${field}: ${(hits ?? []).join(", ")}.` })
  return {
    size,
    age,
    verification_level: verification,
    valid_rules_channel: rules,
    protected: protectedMet,
    safe_environment: safe,
    nsfw_properties: flagged,
    sufficient: unmet.length === 0,
    unmet
  }
}
