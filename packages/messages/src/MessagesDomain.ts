/**
 * The messages domain as one layer: Messages over its store, with its part of a user's personal
 * data registered. Hosts supply the repository, the id generator, the EventBus, the users directory
 * and the ports other domains answer: ChannelAccess (guilds), AuthorStanding (auth).
 */
import type { EventBus, Snowflake } from "@veche/platform"
import type { PersonalData, PublicUsers } from "@veche/users"
import { Layer } from "effect"
import type { AuthorStanding } from "./AuthorStanding.ts"
import type { ChannelAccess } from "./ChannelAccess.ts"
import { ChannelCleanup } from "./ChannelCleanup.ts"
import * as MessagePersonalData from "./MessagePersonalData.ts"
import { Messages } from "./Messages.ts"
import { MessagesRepo } from "./MessagesRepo.ts"

export type Services = Messages | ChannelCleanup

/** The domain's repository ports (PostgreSQL: `PgMessagesRepo`). */
export type Repositories = MessagesRepo

/** Every repository of the domain on memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = MessagesRepo.layerMemory

export const layer: Layer.Layer<
  Services,
  never,
  | Repositories
  | ChannelAccess
  | AuthorStanding
  | PublicUsers.PublicUsers
  | PersonalData.PersonalData
  | EventBus.EventBus
  | Snowflake.SnowflakeGenerator
> = Layer.mergeAll(Messages.layer, MessagePersonalData.layer, ChannelCleanup.layer)
