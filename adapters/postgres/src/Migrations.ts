/**
 * The one ordered list of schema migrations, for the machine's PostgreSQL and the embedded one
 * alike. Imported statically (not globbed) so that bundled builds carry them. Add new files as
 * `<next id>_<name>.ts` and list them here; never edit a migration that has shipped.
 */
import { Migrator } from "effect/sql"
import users0001 from "./migrations/0001_users.ts"
import sessions0002 from "./migrations/0002_sessions.ts"
import verifications0003 from "./migrations/0003_verifications.ts"
import credentials0004 from "./migrations/0004_credentials.ts"
import mfa0005 from "./migrations/0005_mfa.ts"
import deliveryQueue0006 from "./migrations/0006_delivery_queue.ts"
import emailLinks0007 from "./migrations/0007_email_links.ts"
import accountBlocks0008 from "./migrations/0008_account_blocks.ts"
import profiles0009 from "./migrations/0009_profiles.ts"
import accountDeletions0010 from "./migrations/0010_account_deletions.ts"
import dataExports0011 from "./migrations/0011_data_exports.ts"
import relationships0012 from "./migrations/0012_relationships.ts"
import guilds0013 from "./migrations/0013_guilds.ts"
import guildParts0014 from "./migrations/0014_guild_parts.ts"
import accountRestrictions0015 from "./migrations/0015_account_restrictions.ts"
import sessionAccessTokens0016 from "./migrations/0016_session_access_tokens.ts"
import passwordChangedAt0017 from "./migrations/0017_password_changed_at.ts"
import sessionSweep0018 from "./migrations/0018_session_sweep.ts"
import applications0019 from "./migrations/0019_applications.ts"
import userBots0020 from "./migrations/0020_user_bots.ts"
import oauth0021 from "./migrations/0021_oauth.ts"
import discovery0022 from "./migrations/0022_discovery.ts"
import messages0023 from "./migrations/0023_messages.ts"
import applicationFlags0024 from "./migrations/0024_application_flags.ts"
import billing0025 from "./migrations/0025_billing.ts"
import stats0026 from "./migrations/0026_stats.ts"
import staffAudit0027 from "./migrations/0027_staff_audit.ts"
import statsRollups0029 from "./migrations/0029_stats_rollups.ts"
import principalNotify0030 from "./migrations/0030_principal_notify.ts"
import principalQuietInserts0031 from "./migrations/0031_principal_quiet_inserts.ts"
import orphanBotRoles0032 from "./migrations/0032_orphan_bot_roles.ts"
import botTokenNotify0033 from "./migrations/0033_bot_token_notify.ts"

export const loader: Migrator.Loader = Migrator.fromRecord({
  "0001_users": users0001,
  "0002_sessions": sessions0002,
  "0003_verifications": verifications0003,
  "0004_credentials": credentials0004,
  "0005_mfa": mfa0005,
  "0006_delivery_queue": deliveryQueue0006,
  "0007_email_links": emailLinks0007,
  "0008_account_blocks": accountBlocks0008,
  "0009_profiles": profiles0009,
  "0010_account_deletions": accountDeletions0010,
  "0011_data_exports": dataExports0011,
  "0012_relationships": relationships0012,
  "0013_guilds": guilds0013,
  "0014_guild_parts": guildParts0014,
  "0015_account_restrictions": accountRestrictions0015,
  "0016_session_access_tokens": sessionAccessTokens0016,
  "0017_password_changed_at": passwordChangedAt0017,
  "0018_session_sweep": sessionSweep0018,
  "0019_applications": applications0019,
  "0020_user_bots": userBots0020,
  "0021_oauth": oauth0021,
  "0022_discovery": discovery0022,
  "0023_messages": messages0023,
  "0024_application_flags": applicationFlags0024,
  "0025_billing": billing0025,
  "0026_stats": stats0026,
  "0027_staff_audit": staffAudit0027,
  "0029_stats_rollups": statsRollups0029,
  "0030_principal_notify": principalNotify0030,
  "0031_principal_quiet_inserts": principalQuietInserts0031,
  "0032_orphan_bot_roles": orphanBotRoles0032,
  "0033_bot_token_notify": botTokenNotify0033
})

/**
 * Applies what is missing. Effect's migrator takes an exclusive lock on its bookkeeping table, so
 * several nodes starting at once apply each migration exactly once.
 */
export const run = Migrator.make({})({ loader })
