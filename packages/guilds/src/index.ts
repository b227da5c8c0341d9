/** @veche/guilds: servers, their roles, channels, members and invites. */
export * as Guild from "./Guild.ts"
export * as GuildMemberships from "./GuildMemberships.ts"
export * as GuildsErrors from "./GuildsErrors.ts"
export * as GuildsRepo from "./GuildsRepo.ts"
export * as Permissions from "./Permissions.ts"
