/**
 * The users domain as one layer: users as everybody sees them (PublicUsers) for now, and its part
 * of a user's personal data (UserPersonalData); the profile services join it here. Its repository list is `Repositories`; `layerMemoryRepositories` answers
 * them in memory. Hosts supply the repositories.
 */
import type { ProfileImages } from "@veche/media"
import { Layer } from "effect"
import type { PersonalData } from "./PersonalData.ts"
import { ProfilesRepo } from "./ProfilesRepo.ts"
import { PublicUsers } from "./PublicUsers.ts"
import { RelationshipsRepo } from "./RelationshipsRepo.ts"
import * as UserPersonalData from "./UserPersonalData.ts"
import { UsersRepo } from "./UsersRepo.ts"

/** The repository ports of this domain (one adapter each on memory and on PostgreSQL). */
export type Repositories = UsersRepo | ProfilesRepo | RelationshipsRepo

export type Services = PublicUsers

export const layer: Layer.Layer<
  Services,
  never,
  UsersRepo | ProfilesRepo | PersonalData | ProfileImages.ProfileImages
> = Layer.merge(PublicUsers.layer, UserPersonalData.layer)

/** Every repository of the domain in memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = Layer.mergeAll(
  UsersRepo.layerMemory,
  ProfilesRepo.layerMemory,
  RelationshipsRepo.layerMemory
)
