/**
 * The users domain as one layer: profiles and settings (and the dispatches they publish), the
 * current-user view and relationships. Hosts supply the repositories, the event bus and the ports
 * other domains answer: Memberships (guilds), AccountDetails (auth), UserImages (media).
 * `PublicUsers` is not here: GuildsDomain builds it from the same repositories, and the guilds
 * domain answers Memberships, so a users layer that gave guilds their PublicUsers would be a cycle.
 */
import type { EventBus } from "@veche/platform"
import { Layer } from "effect"
import type { AccountDetails } from "./AccountDetails.ts"
import { CurrentUser } from "./CurrentUser.ts"
import type { Memberships } from "./Memberships.ts"
import { Profiles } from "./Profiles.ts"
import { ProfilesRepo } from "./ProfilesRepo.ts"
import { Relationships } from "./Relationships.ts"
import { RelationshipsRepo } from "./RelationshipsRepo.ts"
import type { UserImages } from "./UserImages.ts"
import { UsersRepo } from "./UsersRepo.ts"

export type Services = Profiles | CurrentUser | Relationships

/** The repository ports the domain stores in. */
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
  Repositories | EventBus.EventBus | Memberships | AccountDetails | UserImages
> = Layer.mergeAll(Profiles.layer, CurrentUser.layer, Relationships.layer)
