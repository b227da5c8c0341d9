/**
 * The guilds domain as one layer: its services (guilds, members and bans, roles, channels,
 * invitations), the events they publish and the GUILD_CREATE builder, and the users domain's
 * Memberships port and its part of a user's personal data (PersonalData) answered from the same
 * store. Hosts supply the store, the event bus, ids, account standings, secure randomness, the
 * users domain's PublicUsers (`UsersDomain.layerDirectory`) and the PersonalData registry. Its repository list is `Repositories`; `layerMemoryRepositories` answers it
 * in memory.
 */
import type { EventBus, Snowflake } from "@veche/platform"
import type { Memberships, PersonalData, PublicUsers } from "@veche/users"
import { Layer } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { AccountStandings } from "./AccountStandings.ts"
import type { ChannelContents } from "./ChannelContents.ts"
import { Channels } from "./Channels.ts"
import { ChannelVisibility } from "./ChannelVisibility.ts"
import { GuildEvents } from "./GuildEvents.ts"
import * as GuildMemberships from "./GuildMemberships.ts"
import * as GuildPersonalData from "./GuildPersonalData.ts"
import { GuildSnapshots } from "./GuildSnapshots.ts"
import { Guilds } from "./Guilds.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import { Invites } from "./Invites.ts"
import { MemberChunks } from "./MemberChunks.ts"
import { Members } from "./Members.ts"
import { Roles } from "./Roles.ts"

/** The repository ports of this domain (one adapter each on memory and on PostgreSQL). */
export type Repositories = GuildsRepo

export type Services =
  | Guilds
  | Members
  | Roles
  | Channels
  | Invites
  | GuildEvents
  | GuildSnapshots
  | ChannelVisibility
  | MemberChunks
  | Memberships.Memberships

export const layer: Layer.Layer<
  Services,
  never,
  | GuildsRepo
  | PublicUsers.PublicUsers
  | EventBus.EventBus
  | Snowflake.SnowflakeGenerator
  | AccountStandings
  | SecureRandom.SecureRandom
  | PersonalData.PersonalData
  | ChannelContents
> = Layer.mergeAll(
  Guilds.layer,
  Members.layer,
  Roles.layer,
  Channels.layer,
  Invites.layer,
  GuildMemberships.layer,
  GuildPersonalData.layer,
  // what the gateway reads: who sees which channel, and the members op 8 asks for
  ChannelVisibility.layer,
  MemberChunks.layer
).pipe(Layer.provideMerge(GuildEvents.layer), Layer.provideMerge(GuildSnapshots.layer))

/** Every repository of the domain in memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = GuildsRepo.layerMemory
