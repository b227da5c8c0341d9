/**
 * The messages domain's refusals (@veche/messages) as the API's errors, in one table, like
 * `GuildRefusals`. `refuse` maps each refusal to its error and passes anything else through, and
 * its type does the same, so a handler's error type is exactly the errors its endpoint declares.
 * `refusing` also sets the headers a refusal carries: slow mode's 429 tells when to retry
 * (`Retry-After`), or bot libraries would retry at once, again and again, until the window ends.
 */
import {
  AgeRestrictedChannel,
  CannotEditOthersMessage,
  CannotSendEmptyMessage,
  InvalidChannelType,
  InvalidFormBody,
  MaxPinsReached,
  MissingAccess,
  MissingPermissions,
  SlowmodeRateLimit,
  UnknownChannel,
  UnknownMessage,
  VerificationRequired
} from "@veche/errors"
import type { MessagesErrors } from "@veche/messages"
import { RateLimitHeaders } from "@veche/ratelimit"
import { Effect } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import * as RefusalTable from "./RefusalTable.ts"

const table = {
  NoSuchChannel: () => new UnknownChannel(),
  NoAccess: () => new MissingAccess(),
  MissingPermission: () => new MissingPermissions(),
  /** Voice channels and categories take no messages here (50024). */
  NotTextChannel: () => new InvalidChannelType(),
  NoSuchMessage: () => new UnknownMessage(),
  EmptyMessage: () => new CannotSendEmptyMessage(),
  NotAuthor: () => new CannotEditOthersMessage(),
  SlowmodeActive: () => new SlowmodeRateLimit(),
  AgeRestricted: () => new AgeRestrictedChannel(),
  VerificationRequired: () => new VerificationRequired(),
  PinLimitReached: () => new MaxPinsReached(),
  /** A reply to a message not in the channel, as the platform answers it. */
  NoSuchReference: () =>
    InvalidFormBody.field(["message_reference", "message_id"], "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"),
  /** Longer than the author may write (2000, 4000 with Plus), in the words of the length check. */
  ContentTooLong: (refusal: MessagesErrors.ContentTooLong) =>
    InvalidFormBody.field(["content"], "BASE_TYPE_MAX_LENGTH", `Must be ${refusal.max} or fewer in length.`)
} as const

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = RefusalTable.ApiErrorOf<E, typeof table>

export const refuse: <E>(error: E) => ApiErrorOf<E> = RefusalTable.refuseWith(table)

/** An effect of the messages domain with its refusals as API errors and their headers set. */
export const refusing = <A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, ApiErrorOf<E>, R | HttpServerRequest.HttpServerRequest> =>
  Effect.catch(self, (error) =>
    RefusalTable.tagOf(error) === "SlowmodeActive"
      ? Effect.andThen(
          HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.succeed(
              HttpServerResponse.setHeaders(
                response,
                RateLimitHeaders.exceeded({
                  retryAfterMs: (error as MessagesErrors.SlowmodeActive).retryAfterMs,
                  scope: "user"
                })
              )
            )
          ),
          Effect.fail(refuse(error))
        )
      : Effect.fail(refuse(error))
  )
