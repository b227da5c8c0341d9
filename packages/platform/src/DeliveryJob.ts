/**
 * One piece of outgoing mail or SMS waiting in the delivery queue, and the text form a store keeps
 * it in.
 *
 * A job carries the whole message (the code, the link, the text): a store that writes it anywhere
 * but process memory must seal it (`SecretBox`), and nothing may log it. `describe` is the one safe
 * way to name a job in a log line.
 */
import { DateTime, Duration, type Effect, Schema } from "effect"
import * as DevOutbox from "./DevOutbox.ts"
import type * as Mailer from "./Mailer.ts"
import type * as SmsSender from "./SmsSender.ts"

/** A verification SMS; useless (and never sent) from `expiresAt` on, when its code has expired. */
export interface SmsJob {
  readonly _tag: "Sms"
  readonly message: SmsSender.VerificationMessage
  readonly expiresAt: DateTime.Utc
}

/** A letter; never sent from `expiresAt` on, when the link it carries has expired. */
export interface MailJob {
  readonly _tag: "Mail"
  readonly letter: Mailer.Letter
  readonly expiresAt: DateTime.Utc
}

export type Job = SmsJob | MailJob

/**
 * The stored form. An SMS's `ttl` is left out: it is recomputed from `expiresAt` when the message
 * finally goes out (`toSend`), so a gateway that drops late messages is told how long the code has
 * left then, not how long it had when it was queued.
 */
const StoredJob = Schema.Union([
  Schema.TaggedStruct("Sms", {
    message: Schema.Struct({
      to: Schema.String,
      kind: DevOutbox.MessageKind,
      code: Schema.String,
      text: Schema.String
    }),
    expiresAt: Schema.DateTimeUtcFromString
  }),
  Schema.TaggedStruct("Mail", {
    letter: Schema.Struct({
      to: Schema.String,
      subject: Schema.String,
      text: Schema.String,
      html: Schema.optionalKey(Schema.String),
      kind: DevOutbox.MessageKind,
      link: Schema.optionalKey(Schema.String),
      token: Schema.optionalKey(Schema.String),
      code: Schema.optionalKey(Schema.String)
    }),
    expiresAt: Schema.DateTimeUtcFromString
  })
])

const JobJson = Schema.fromJsonString(StoredJob)
const encodeJson = Schema.encodeEffect(JobJson)
const decodeJson = Schema.decodeUnknownEffect(JobJson)

/** The job as JSON text (for a store to seal). */
export const encode = (job: Job): Effect.Effect<string, Schema.SchemaError> => encodeJson(stored(job))

/** A job back from `encode`'s text. */
export const decode = (text: string): Effect.Effect<Job, Schema.SchemaError> => decodeJson(text)

/** The job exactly as a store gives it back: without the SMS `ttl`, without absent optional fields. */
const stored = (job: Job): typeof StoredJob.Type => {
  if (job._tag === "Sms") {
    const { to, kind, code, text } = job.message
    return { _tag: "Sms", message: { to, kind, code, text }, expiresAt: job.expiresAt }
  }
  const { to, subject, text, html, kind, link, token, code } = job.letter
  return {
    _tag: "Mail",
    letter: {
      to,
      subject,
      text,
      kind,
      ...(html === undefined ? {} : { html }),
      ...(link === undefined ? {} : { link }),
      ...(token === undefined ? {} : { token }),
      ...(code === undefined ? {} : { code })
    },
    expiresAt: job.expiresAt
  }
}

/** True from the instant the job expires: at `expiresAt` it is already too late. */
export const isExpired = (job: Job, now: DateTime.Utc): boolean => !DateTime.isGreaterThan(job.expiresAt, now)

/** The SMS as it goes out at `now`: its `ttl` is the time its code has left. */
export const toSend = (job: SmsJob, now: DateTime.Utc): SmsSender.VerificationMessage => ({
  ...job.message,
  ttl: Duration.max(DateTime.distance(now, job.expiresAt), Duration.zero)
})

/** A name for the job that is safe in a log line: the channel and the kind, never text, code or link. */
export const describe = (job: Job): string =>
  job._tag === "Sms" ? `SMS [${job.message.kind}]` : `mail [${job.letter.kind}]`
