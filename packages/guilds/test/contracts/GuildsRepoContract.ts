/**
 * The one behaviour suite every GuildsRepo adapter must pass: on memory in every run, on PostgreSQL
 * when DATABASE_URL is set (guilds refer to users, so users are made first). Everything is checked
 * through the port only; ids are unique per run, so the tests share one store without colliding.
 * One suite per part of the port; this entry runs them all, in the port's order.
 */

import { bansContract } from "./GuildsRepoBansContract.ts"
import { channelsContract } from "./GuildsRepoChannelsContract.ts"
import { deletionRacesContract } from "./GuildsRepoDeletionRacesContract.ts"
import type { GuildsRepoIt } from "./GuildsRepoFixtures.ts"
import { guildsContract } from "./GuildsRepoGuildsContract.ts"
import { invitesContract } from "./GuildsRepoInvitesContract.ts"
import { membersContract } from "./GuildsRepoMembersContract.ts"
import { rolesContract } from "./GuildsRepoRolesContract.ts"

export const guildsRepoContract = (it: GuildsRepoIt) => {
  guildsContract(it)
  rolesContract(it)
  channelsContract(it)
  membersContract(it)
  bansContract(it)
  invitesContract(it)
  deletionRacesContract(it)
}
