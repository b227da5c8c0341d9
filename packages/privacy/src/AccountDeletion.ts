/**
 * Deleting an account: requested with the password (refused while the user owns servers with
 * other members: transfer or dissolve them first), carried out after 14 days unless cancelled.
 * A worker in the layer's scope carries out due requests, read from the store, so a restart in
 * between loses nothing; it sleeps until the next due request (at most an hour, to see requests
 * other nodes made). Carrying out erases every domain's part of the user's personal data
 * (`PersonalData`, from the top of the picture down: guilds, then the account — sessions, 2FA,
 * links, phone, e-mail, password — then the profile, its images and the name), and only then marks
 * the request completed: a part that fails leaves it pending, to be carried out again in full
 * (every part is idempotent) by the next run.
 */
import { type MfaErrors, PasswordCheck, type RegistrationErrors } from "@veche/auth"
import { type Snowflake, Spans } from "@veche/platform"
import { Memberships, PersonalData } from "@veche/users"
import { Context, DateTime, Duration, Effect, Exit, Layer, Option, type Redacted, type Scope } from "effect"
import { DELAY, type Deletion } from "./Deletion.ts"
import { DeletionsRepo } from "./DeletionsRepo.ts"
import { OwnsGuilds } from "./PrivacyErrors.ts"

/** How often a worker looks for requests made on other nodes. */
const LOOK_AGAIN = Duration.hours(1)

/**
 * How long a worker waits after a round in which a part failed (a database or storage outage):
 * going round again at once would spin and flood the log while the outage lasts.
 */
export const RETRY_AFTER = Duration.minutes(1)

export class AccountDeletion extends Context.Service<
  AccountDeletion,
  {
    /** The current request, if any. */
    readonly status: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Deletion>>
    readonly request: (request: {
      readonly userId: Snowflake.Snowflake
      readonly password: Redacted.Redacted<string>
    }) => Effect.Effect<
      Deletion,
      | MfaErrors.PasswordMismatch
      | OwnsGuilds
      | RegistrationErrors.TooManyAttempts
      | RegistrationErrors.TemporarilyUnavailable
    >
    /** Cancels a pending request; answers the state after it (none: nothing was asked). */
    readonly cancel: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Deletion>>
    /** Carries out every request due now; answers how many (the worker calls it; so may operators). */
    readonly carryOutDue: Effect.Effect<number>
  }
>()("@veche/privacy/AccountDeletion") {
  static readonly layer: Layer.Layer<
    AccountDeletion,
    never,
    DeletionsRepo | PasswordCheck.PasswordCheck | Memberships.Memberships | PersonalData.PersonalData
  > = Layer.effect(
    AccountDeletion,
    Effect.gen(function* () {
      const deletions = yield* DeletionsRepo
      const passwords = yield* PasswordCheck.PasswordCheck
      const memberships = yield* Memberships.Memberships
      const personalData = yield* PersonalData.PersonalData
      const scope: Scope.Scope = yield* Effect.scope

      const request = Spans.fn("AccountDeletion.request")(function* (request: {
        readonly userId: Snowflake.Snowflake
        readonly password: Redacted.Redacted<string>
      }) {
        yield* passwords.verify(request.userId, request.password)
        if (yield* memberships.ownsGuildsWithOthers(request.userId)) return yield* new OwnsGuilds()
        const now = yield* DateTime.now
        return yield* deletions.request({
          userId: request.userId,
          state: "pending",
          requestedAt: now,
          deleteAt: DateTime.add(now, { milliseconds: Duration.toMillis(DELAY) })
        })
      })

      const cancel = (userId: Snowflake.Snowflake) =>
        Effect.flatMap(deletions.cancel(userId), (cancelled) =>
          Option.isSome(cancelled) ? Effect.succeed(cancelled) : deletions.find(userId)
        )

      /** Every part can run twice without harm, so a crash halfway is finished by the next run. */
      const erase = Effect.fnUntraced(function* (userId: Snowflake.Snowflake) {
        const parts = yield* personalData.parts
        for (const part of [...parts].reverse()) yield* part.erase(userId)
        if (yield* deletions.complete(userId)) yield* Effect.logInfo(`account ${userId} deleted`)
      })

      // Each due request on its own: one whose part keeps failing must not hold up the others behind
      // it. The round still fails (with the first failure) so an operator's run and the worker see it.
      const carryOutDue = Effect.gen(function* () {
        const due = yield* deletions.due(yield* DateTime.now, 100)
        const exits = yield* Effect.forEach(due, (deletion) => Effect.exit(erase(deletion.userId)))
        const failed = exits.find(Exit.isFailure)
        if (failed !== undefined) return yield* Effect.failCause(failed.cause)
        return due.length
      }).pipe(Effect.withSpan("AccountDeletion.carryOutDue"))

      const worker = Effect.gen(function* () {
        yield* carryOutDue
        const next = yield* deletions.nextDue
        const now = yield* DateTime.now
        const wait = Option.match(next, {
          onNone: () => LOOK_AGAIN,
          onSome: (at) => Duration.min(Duration.max(DateTime.distance(now, at), Duration.millis(1)), LOOK_AGAIN)
        })
        yield* Effect.sleep(wait)
      }).pipe(
        Effect.catchCause((cause) =>
          Effect.andThen(Effect.logError("account deletion worker", cause), Effect.sleep(RETRY_AFTER))
        ),
        Effect.forever
      )
      yield* Effect.forkIn(worker, scope)

      return AccountDeletion.of({ status: deletions.find, request, cancel, carryOutDue })
    })
  )
}
