/**
 * @veche/postgres: the repository ports on PostgreSQL and the ordered migrations. Works the same on
 * a PostgreSQL server (DATABASE_URL) and on the reference server's embedded instance.
 */
export * as Migrations from "./Migrations.ts"
export * as PgAccountSnapshots from "./PgAccountSnapshots.ts"
export * as PgAccountsRepo from "./PgAccountsRepo.ts"
export * as PgBlocksRepo from "./PgBlocksRepo.ts"
export * as PgDatabase from "./PgDatabase.ts"
export * as PgDataExportsRepo from "./PgDataExportsRepo.ts"
export * as PgDeletionsRepo from "./PgDeletionsRepo.ts"
export * as PgDeliveryStore from "./PgDeliveryStore.ts"
export * as PgEmailLinksRepo from "./PgEmailLinksRepo.ts"
export * as PgGuildsRepo from "./PgGuildsRepo.ts"
export * as PgMfaRepo from "./PgMfaRepo.ts"
export * as PgPrivacyRepositories from "./PgPrivacyRepositories.ts"
export * as PgProfilesRepo from "./PgProfilesRepo.ts"
export * as PgRelationshipsRepo from "./PgRelationshipsRepo.ts"
export * as PgRepositories from "./PgRepositories.ts"
export * as PgRestrictionsRepo from "./PgRestrictionsRepo.ts"
export * as PgSessionsRepo from "./PgSessionsRepo.ts"
export * as PgTestSchema from "./PgTestSchema.ts"
export * as PgUsersRepo from "./PgUsersRepo.ts"
export * as PgVerificationsRepo from "./PgVerificationsRepo.ts"
