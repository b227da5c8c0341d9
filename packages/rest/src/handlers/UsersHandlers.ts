/** Handlers of the Users group. */
import { AccountDeletion, AccountsRepo, type Deletion, EmailBinding, Mfa, PhoneChange } from "@veche/auth"
import { Conflict, PhoneCodeInvalid, UnknownUser } from "@veche/errors"
import { ProfileImages } from "@veche/media"
import { EventBus } from "@veche/platform"
import { Memberships, ProfilesRepo, UsersRepo } from "@veche/users"
import { DateTime, Effect, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal, requireUser } from "../Principal.ts"
import { RestApi } from "../RestApi.ts"
import { addressOf } from "./Client.ts"
import * as CurrentUserView from "./CurrentUserView.ts"
import { formError, passwordMismatch, throttled } from "./FlowErrors.ts"
import * as ProfileEdits from "./ProfileEdits.ts"

const deletionView = (deletion: Option.Option<Deletion.Deletion>) =>
  Option.match(deletion, {
    onNone: () => ({ status: "none" as const, requested_at: null, delete_at: null }),
    onSome: (found) => ({
      status: found.state,
      requested_at: DateTime.formatIso(found.requestedAt),
      delete_at: DateTime.formatIso(found.deleteAt)
    })
  })

const phoneTaken = {
  PhoneTaken: () => Effect.fail(new Conflict({ message: "This phone number is already registered." }))
}

export const layer = HttpApiBuilder.group(RestApi, "users", (handlers) =>
  Effect.gen(function* () {
    const users = yield* UsersRepo.UsersRepo
    const profiles = yield* ProfilesRepo.ProfilesRepo
    const accounts = yield* AccountsRepo.AccountsRepo
    const email = yield* EmailBinding.EmailBinding
    const phones = yield* PhoneChange.PhoneChange
    const deletions = yield* AccountDeletion.AccountDeletion
    const events = yield* EventBus.EventBus
    const memberships = yield* Memberships.Memberships
    const currentUser = CurrentUserView.make({ users, profiles, accounts, mfa: yield* Mfa.Mfa, email, memberships })
    const edits = ProfileEdits.make({ users, profiles, events, images: yield* ProfileImages.ProfileImages })
    const mine = Effect.flatMap(requireUser, (user) => currentUser(user.userId, false))

    return handlers
      .handle("me", () =>
        Effect.flatMap(CurrentPrincipal, (principal) => currentUser(principal.userId, principal.kind === "bot"))
      )
      .handle("updateMe", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          yield* edits.updateProfile(user.userId, payload)
          return yield* currentUser(user.userId, false)
        })
      )
      .handle("guildOrder", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          // Kept as chosen (duplicates dropped); shown filtered to the servers the user is in.
          yield* profiles.update(user.userId, { guildOrder: [...new Set(payload.guilds)] })
        })
      )
      .handle("settings", () => Effect.flatMap(requireUser, (user) => edits.settings(user.userId)))
      .handle("updateSettings", ({ payload }) =>
        Effect.flatMap(requireUser, (user) => edits.updateSettings(user.userId, payload))
      )
      .handle("startPhoneChange", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          const request = yield* HttpServerRequest.HttpServerRequest
          const started = yield* phones.start({
            userId: user.userId,
            password: Redacted.make(payload.password),
            phone: payload.phone,
            address: addressOf(request)
          })
          return {
            verification_id: started.verificationId,
            expires_in: started.expiresIn,
            phone: started.maskedPhone,
            channel: started.channel
          }
        }).pipe(Effect.catchTags({ ...passwordMismatch, ...phoneTaken, ...throttled }))
      )
      .handle("confirmPhoneChange", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          yield* phones.complete({ userId: user.userId, verificationId: payload.verification_id, code: payload.code })
          return yield* currentUser(user.userId, false)
        }).pipe(Effect.catchTags({ CodeInvalid: () => Effect.fail(new PhoneCodeInvalid()), ...phoneTaken }))
      )
      .handle("addEmail", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          yield* email.add({ userId: user.userId, password: Redacted.make(payload.password), email: payload.email })
          return yield* currentUser(user.userId, false)
        }).pipe(
          Effect.catchTags({
            ...passwordMismatch,
            ...throttled,
            EmailTaken: () =>
              Effect.fail(formError("email", "EMAIL_ALREADY_REGISTERED", "Email is already registered."))
          })
        )
      )
      .handle("removeEmail", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          yield* email.remove({ userId: user.userId, password: Redacted.make(payload.password) })
          return yield* currentUser(user.userId, false)
        }).pipe(Effect.catchTags({ ...passwordMismatch, ...throttled }))
      )
      .handle("resendEmail", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          yield* email.resend(user.userId)
          return yield* mine
        }).pipe(
          Effect.catchTags({
            ...throttled,
            NothingPending: () =>
              Effect.fail(formError("email", "EMAIL_NOT_PENDING", "No address waits for confirmation."))
          })
        )
      )
      .handle("requestDeletion", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          const deletion = yield* deletions.request({ userId: user.userId, password: Redacted.make(payload.password) })
          return deletionView(Option.some(deletion))
        }).pipe(
          Effect.catchTags({
            ...passwordMismatch,
            ...throttled,
            OwnsGuilds: () =>
              Effect.fail(
                formError("guilds", "OWNS_GUILDS_WITH_MEMBERS", "Transfer or dissolve the servers you own first.")
              )
          })
        )
      )
      .handle("cancelDeletion", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          return deletionView(yield* deletions.cancel(user.userId))
        })
      )
      .handle("user", ({ params }) =>
        Effect.gen(function* () {
          const user = yield* users.findById(params.user_id)
          if (Option.isNone(user)) return yield* new UnknownUser()
          return CurrentUserView.publicView(user.value, yield* profiles.get(params.user_id), false)
        })
      )
  })
)
