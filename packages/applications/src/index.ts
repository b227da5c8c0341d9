/**
 * @veche/applications: developer applications and their bots (bot users, bot tokens, client
 * secrets). Ports other domains answer: BotUsers, OwnerSecurity, BotGuilds, ApplicationIcons,
 * ClientGrants.
 */
export * as Application from "./Application.ts"
export * as ApplicationIcons from "./ApplicationIcons.ts"
export * as ApplicationSecrets from "./ApplicationSecrets.ts"
export * as Applications from "./Applications.ts"
export * as ApplicationsConfig from "./ApplicationsConfig.ts"
export * as ApplicationsDomain from "./ApplicationsDomain.ts"
export * as ApplicationsErrors from "./ApplicationsErrors.ts"
export * as ApplicationsRepo from "./ApplicationsRepo.ts"
export * as BotGuilds from "./BotGuilds.ts"
export * as BotUsers from "./BotUsers.ts"
export * as ClientGrants from "./ClientGrants.ts"
export * as OwnerSecurity from "./OwnerSecurity.ts"
