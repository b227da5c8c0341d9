/**
 * Handlers of the messages group: decode, call the messages domain as the caller (a user or a bot),
 * map its refusals. The domain answers the wire message object.
 */
import { type MessagesApi, Principal, RestApi } from "@veche/api"
import { type Message, Messages } from "@veche/messages"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse, refusing } from "./MessagesRefusals.ts"

/** The page's start: `around`, else `before`, else `after`, else the newest (one is read, as on the platform). */
const cursorOf = (query: {
  readonly around?: string | undefined
  readonly before?: string | undefined
  readonly after?: string | undefined
}): Message.Cursor =>
  query.around !== undefined
    ? { around: query.around as Message.Message["id"] }
    : query.before !== undefined
      ? { before: query.before as Message.Message["id"] }
      : query.after !== undefined
        ? { after: query.after as Message.Message["id"] }
        : {}

const allowedMentionsOf = (input: MessagesApi.AllowedMentionsInput | null | undefined) =>
  input == null
    ? undefined
    : { parse: input.parse, users: input.users, roles: input.roles, repliedUser: input.replied_user }

export const layer: GroupLayer.Authorized<"messages", Messages.Messages> = HttpApiBuilder.group(
  RestApi.RestApi,
  "messages",
  (handlers) =>
    Effect.gen(function* () {
      const messages = yield* Messages.Messages
      return handlers
        .handle("listMessages", ({ params, query }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            messages.list(actor, params.channel_id, cursorOf(query), query.limit)
          ).pipe(Effect.mapError(refuse))
        )
        .handle("createMessage", ({ params, payload }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            messages.create(actor, params.channel_id, {
              content: payload.content ?? "",
              embeds: payload.embeds ?? (payload.embed == null ? [] : [payload.embed]),
              tts: payload.tts ?? false,
              nonce: payload.nonce ?? null,
              allowedMentions: allowedMentionsOf(payload.allowed_mentions),
              reference:
                payload.message_reference === undefined
                  ? undefined
                  : {
                      messageId: payload.message_reference.message_id,
                      failIfNotExists: payload.message_reference.fail_if_not_exists ?? true
                    }
            })
          ).pipe(refusing)
        )
        .handle("getMessage", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            messages.get(actor, params.channel_id, params.message_id)
          ).pipe(Effect.mapError(refuse))
        )
        .handle("editMessage", ({ params, payload }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            messages.edit(actor, params.channel_id, params.message_id, {
              content: payload.content,
              embeds: payload.embeds,
              allowedMentions: allowedMentionsOf(payload.allowed_mentions)
            })
          ).pipe(Effect.mapError(refuse))
        )
        .handle("deleteMessage", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            messages.remove(actor, params.channel_id, params.message_id)
          ).pipe(Effect.mapError(refuse))
        )
        .handle("triggerTyping", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) => messages.typing(actor, params.channel_id)).pipe(
            Effect.mapError(refuse)
          )
        )
        .handle("listPins", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) => messages.pins(actor, params.channel_id)).pipe(
            Effect.mapError(refuse)
          )
        )
        .handle("pinMessage", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            messages.pin(actor, params.channel_id, params.message_id)
          ).pipe(Effect.mapError(refuse))
        )
        .handle("unpinMessage", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            messages.unpin(actor, params.channel_id, params.message_id)
          ).pipe(Effect.mapError(refuse))
        )
    })
)
