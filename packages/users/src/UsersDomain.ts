/**
 * The users domain as one layer: profiles and settings (and the dispatches they publish), the
 * current-user view, relationships, users as everybody sees them, and its part of a user's
 * personal data (UserPersonalData). Its repository list is
 * `Repositories`; `layerMemoryRepositories` answers them in memory. Hosts supply the repositories,
 * the event bus and the ports other domains answer: Memberships (guilds), AccountDetails (auth),
 * UserImages (media). `layerDirectory` is the part the domains below this one read (guilds,
 * moderation: users as everybody sees them), over the repositories only: the guilds answer
 * Memberships, so taking PublicUsers from `layer` would make a layer cycle.
 */
import type { EventBus } from "@veche/platform"
import { Layer } from "effect"
import type { AccountDetails } from "./AccountDetails.ts"
import { CurrentUser } from "./CurrentUser.ts"
import type { Memberships } from "./Memberships.ts"
import type { PersonalData } from "./PersonalData.ts"
import { Profiles } from "./Profiles.ts"
import { ProfilesRepo } from "./ProfilesRepo.ts"
import { PublicUsers } from "./PublicUsers.ts"
import { Relationships } from "./Relationships.ts"
import { RelationshipsRepo } from "./RelationshipsRepo.ts"
import type { UserImages } from "./UserImages.ts"
import * as UserPersonalData from "./UserPersonalData.ts"
import { UsersRepo } from "./UsersRepo.ts"

export type Services = Profiles | CurrentUser | Relationships | PublicUsers

/** The repository ports of this domain (one adapter each on memory and on PostgreSQL). */
export type Repositories = UsersRepo | ProfilesRepo | RelationshipsRepo

/** Every repository of the domain on memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = Layer.mergeAll(
  UsersRepo.layerMemory,
  ProfilesRepo.layerMemory,
  RelationshipsRepo.layerMemory
)

export const layer: Layer.Layer<
  Services,
  never,
  Repositories | EventBus.EventBus | Memberships | AccountDetails | UserImages | PersonalData
> = Layer.mergeAll(Profiles.layer, CurrentUser.layer, Relationships.layer, PublicUsers.layer, UserPersonalData.layer)

/**
 * Users as everybody sees them (PublicUsers) alone, over the repositories: what the domains below
 * this one (guilds, moderation) read instead of the users' repositories.
 */
export const layerDirectory: Layer.Layer<PublicUsers, never, UsersRepo | ProfilesRepo> = PublicUsers.layer
