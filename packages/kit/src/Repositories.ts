/**
 * Every domain's repository ports, and all of them in memory: one line per domain in each. A host
 * answers them at once (`PgRepositories.layer` from @veche/postgres is the same list on PostgreSQL).
 */
import { AuthDomain } from "@veche/auth"
import { GuildsDomain } from "@veche/guilds"
import { PrivacyDomain } from "@veche/privacy"
import { UsersDomain } from "@veche/users"
import { Layer } from "effect"

export type Repositories =
  | UsersDomain.Repositories
  | AuthDomain.Repositories
  | GuildsDomain.Repositories
  | PrivacyDomain.Repositories

/**
 * Every repository in memory, fresh per build. The domains' memory stores that read each other
 * (accounts and snapshots read users and profiles) get the one users store below them.
 */
export const layerMemoryRepositories: Layer.Layer<Repositories> = Layer.mergeAll(
  AuthDomain.layerMemoryRepositories,
  GuildsDomain.layerMemoryRepositories,
  PrivacyDomain.layerMemoryRepositories
).pipe(Layer.provideMerge(UsersDomain.layerMemoryRepositories))
