/**
 * The messages domain's part of a user's personal data: the messages they wrote (channel, id, time,
 * content and embeds) in the export, no file for a user who wrote none; erasure deletes them (the
 * content is theirs; replies to them show the reference as gone). Above the guilds in the order:
 * erased before the memberships and the account.
 */
import type { Snowflake } from "@veche/platform"
import { PersonalData } from "@veche/users"
import { DateTime, Effect, type Layer } from "effect"
import { MessagesRepo } from "./MessagesRepo.ts"

export const LEVEL = PersonalData.GUILDS + 5

export const layer: Layer.Layer<never, never, PersonalData.PersonalData | MessagesRepo> = PersonalData.register(
  Effect.map(Effect.service(MessagesRepo), (messages) => ({
    name: "messages",
    level: LEVEL,
    export: (userId: Snowflake.Snowflake) =>
      Effect.map(
        messages.byAuthor(userId),
        (written): ReadonlyArray<PersonalData.Section> =>
          written.length === 0
            ? []
            : [
                {
                  file: "messages.json",
                  about: "the messages you wrote",
                  content: written.map((message) => ({
                    id: message.id,
                    channel_id: message.channelId,
                    guild_id: message.guildId,
                    timestamp: DateTime.formatIso(message.createdAt),
                    edited_timestamp: message.editedAt === null ? null : DateTime.formatIso(message.editedAt),
                    content: message.content,
                    embeds: message.embeds
                  }))
                }
              ]
      ),
    // Idempotent: a second run finds nothing left.
    erase: (userId: Snowflake.Snowflake) => Effect.asVoid(messages.removeByAuthor(userId))
  }))
)
