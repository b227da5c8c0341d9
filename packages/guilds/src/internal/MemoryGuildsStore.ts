/**
 * GuildsRepo's in-memory adapter (`GuildsRepo.layerMemory`): the whole store in one Ref, every
 * change one Ref.modify (atomic), so the caps and the join checks hold under concurrency as on
 * PostgreSQL. Composed from one part per concept of the port.
 */
import { Effect } from "effect"
import type { GuildsRepo } from "../GuildsRepo.ts"
import * as MemoryGuildChannels from "./MemoryGuildChannels.ts"
import * as MemoryGuildInvites from "./MemoryGuildInvites.ts"
import * as MemoryGuildRoles from "./MemoryGuildRoles.ts"
import * as MemoryGuildsMembers from "./MemoryGuildsMembers.ts"
import { makeStore } from "./MemoryGuildsState.ts"

export const make: Effect.Effect<GuildsRepo["Service"]> = Effect.map(makeStore, (store) => ({
  ...MemoryGuildsMembers.make(store),
  ...MemoryGuildRoles.make(store),
  ...MemoryGuildChannels.make(store),
  ...MemoryGuildInvites.make(store)
}))
