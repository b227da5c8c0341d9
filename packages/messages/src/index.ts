/**
 * @veche/messages: messages in guild text channels (send, history, edit, delete, typing, pins), the
 * v10 message object and the dispatches they publish. Ports other domains answer: ChannelAccess
 * (guilds), AuthorStanding (auth), AuthorLimits (billing's entitlements; free by default).
 */
export * as AuthorLimits from "./AuthorLimits.ts"
export * as AuthorStanding from "./AuthorStanding.ts"
export * as ChannelAccess from "./ChannelAccess.ts"
export * as Mentions from "./Mentions.ts"
export * as Message from "./Message.ts"
export * as MessageDispatches from "./MessageDispatches.ts"
export * as MessagePersonalData from "./MessagePersonalData.ts"
export * as MessageSchemas from "./MessageSchemas.ts"
export * as Messages from "./Messages.ts"
export * as MessagesDomain from "./MessagesDomain.ts"
export * as MessagesErrors from "./MessagesErrors.ts"
export * as MessagesRepo from "./MessagesRepo.ts"
export * as MessageViews from "./MessageViews.ts"
