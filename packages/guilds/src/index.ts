/** @veche/guilds: servers, their roles, channels, members and invites. */
export * as Permissions from "./Permissions.ts"
