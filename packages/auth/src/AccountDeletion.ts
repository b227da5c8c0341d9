/**
 * Deleting an account: requested with the password (refused while the user owns servers with
 * other members: transfer or dissolve them first), carried out after 14 days unless cancelled.
 * A worker in the layer's scope carries out due requests, read from the store, so a restart in
 * between loses nothing; it sleeps until the next due request (at most an hour, to see requests
 * other nodes made). Carrying out is idempotent: the account's name is freed, its phone, e-mail
 * and password erased, its profile reset, 2FA and every session and link ended, and the avatar and
 * banner it showed deleted from storage (after the reset, so a failed delete only orphans them).
 */
import { ProfileImages } from "@veche/media"
import type { Snowflake } from "@veche/platform"
import { Memberships, Profile, ProfilesRepo, UsersRepo } from "@veche/users"
import { Context, DateTime, Duration, Effect, Layer, Option, type Redacted, Schema, type Scope } from "effect"
import { AccountsRepo } from "./AccountsRepo.ts"
import { DELAY, type Deletion } from "./Deletion.ts"
import { DeletionsRepo } from "./DeletionsRepo.ts"
import { EmailLinksRepo } from "./EmailLinksRepo.ts"
import type { PasswordMismatch } from "./MfaErrors.ts"
import { MfaRepo } from "./MfaRepo.ts"
import { PasswordCheck } from "./PasswordCheck.ts"
import type { TemporarilyUnavailable, TooManyAttempts } from "./RegistrationErrors.ts"
import { Sessions } from "./Sessions.ts"

/** The user owns servers with other members (400: transfer or dissolve them first). */
export class OwnsGuilds extends Schema.TaggedError<OwnsGuilds>()("OwnsGuilds", {}) {}

/** How often a worker looks for requests made on other nodes. */
const LOOK_AGAIN = Duration.hours(1)

export class AccountDeletion extends Context.Service<
  AccountDeletion,
  {
    /** The current request, if any. */
    readonly status: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Deletion>>
    readonly request: (request: {
      readonly userId: Snowflake.Snowflake
      readonly password: Redacted.Redacted<string>
    }) => Effect.Effect<Deletion, PasswordMismatch | OwnsGuilds | TooManyAttempts | TemporarilyUnavailable>
    /** Cancels a pending request; answers the state after it (none: nothing was asked). */
    readonly cancel: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Deletion>>
    /** Carries out every request due now; answers how many (the worker calls it; so may operators). */
    readonly carryOutDue: Effect.Effect<number>
  }
>()("@veche/auth/AccountDeletion") {
  static readonly layer: Layer.Layer<
    AccountDeletion,
    never,
    | DeletionsRepo
    | PasswordCheck
    | Memberships.Memberships
    | UsersRepo.UsersRepo
    | AccountsRepo
    | ProfilesRepo.ProfilesRepo
    | MfaRepo
    | EmailLinksRepo
    | Sessions
    | ProfileImages.ProfileImages
  > = Layer.effect(
    AccountDeletion,
    Effect.gen(function* () {
      const deletions = yield* DeletionsRepo
      const passwords = yield* PasswordCheck
      const memberships = yield* Memberships.Memberships
      const users = yield* UsersRepo.UsersRepo
      const accounts = yield* AccountsRepo
      const profiles = yield* ProfilesRepo.ProfilesRepo
      const mfa = yield* MfaRepo
      const links = yield* EmailLinksRepo
      const sessions = yield* Sessions
      const images = yield* ProfileImages.ProfileImages
      const scope: Scope.Scope = yield* Effect.scope

      const request = Effect.fn("AccountDeletion.request")(function* (request: {
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

      /** Every step can run twice without harm, so a crash halfway is finished by the next run. */
      const erase = Effect.fnUntraced(function* (userId: Snowflake.Snowflake) {
        const now = yield* DateTime.now
        yield* sessions.endAll(userId)
        yield* mfa.disable(userId)
        yield* links.burnFor(userId, "bind", now)
        yield* links.burnFor(userId, "recover", now)
        yield* accounts.erase(userId)
        const shown = yield* profiles.get(userId)
        yield* profiles.update(userId, Profile.DEFAULT)
        yield* ProfileImages.discard(images, "avatars", userId, shown.avatar)
        yield* ProfileImages.discard(images, "user-banners", userId, shown.banner)
        yield* users.anonymise(userId)
        if (yield* deletions.complete(userId)) yield* Effect.logInfo(`account ${userId} deleted`)
      })

      const carryOutDue = Effect.gen(function* () {
        const due = yield* deletions.due(yield* DateTime.now, 100)
        yield* Effect.forEach(due, (deletion) => erase(deletion.userId), { discard: true })
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
        Effect.catchCause((cause) => Effect.logError("account deletion worker", cause)),
        Effect.forever
      )
      yield* Effect.forkIn(worker, scope)

      return AccountDeletion.of({ status: deletions.find, request, cancel, carryOutDue })
    })
  )
}
