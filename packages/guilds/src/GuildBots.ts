/**
 * Bots in guilds. A bot joins through an authorisation by a member with Manage Guild (the OAuth
 * bot flow), never by invitation, and holds a managed role named after it that carries the
 * permissions it was granted. Until applications mark bot users, that role is how a member is known
 * to be a bot.
 */
import type { Member, Role } from "./Guild.ts"

export const isBotMember = (roles: ReadonlyArray<Role>, member: Member): boolean =>
  roles.some((role) => role.managed && role.botId === member.userId)
