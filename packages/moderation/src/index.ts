/** @veche/moderation: platform staff, and sanctions on accounts (blocks and restrictions). */
export * as GuildStandings from "./GuildStandings.ts"
export * as Moderation from "./Moderation.ts"
export * as ModerationDomain from "./ModerationDomain.ts"
export * as ModerationErrors from "./ModerationErrors.ts"
export * as Sanction from "./Sanction.ts"
export * as SanctionBlocks from "./SanctionBlocks.ts"
export * as SanctionsRepo from "./SanctionsRepo.ts"
export * as Staff from "./Staff.ts"
