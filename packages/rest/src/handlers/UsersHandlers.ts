/** Handlers of the Users group. */
import { Principal, RestApi } from "@veche/api"
import { AccountDeletion, AccountSnapshot, DataExports, type Deletion, EmailBinding, PhoneChange } from "@veche/auth"
import { UnknownUser } from "@veche/errors"
import { ProfileImages } from "@veche/media"
import { EventBus } from "@veche/platform"
import { Memberships, ProfilesRepo, RelationshipsRepo, UsersRepo } from "@veche/users"
import { DateTime, Effect, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { refusing, refusingPhoneChange } from "./AuthRefusals.ts"
import { addressOf, startedView } from "./Client.ts"
import * as CurrentUserView from "./CurrentUserView.ts"
import type * as GroupLayer from "./GroupLayer.ts"
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

const iso = (time: DateTime.Utc | null) => (time === null ? null : DateTime.formatIso(time))

const exportView = (found: Option.Option<DataExports.ExportView>) =>
  Option.match(found, {
    onNone: () => ({
      id: null,
      status: "none" as const,
      requested_at: null,
      ready_at: null,
      expires_at: null,
      size: null,
      url: null,
      url_expires_at: null
    }),
    onSome: ({ export: exported, link }) => ({
      id: exported.id,
      status: exported.state,
      requested_at: DateTime.formatIso(exported.requestedAt),
      ready_at: iso(exported.readyAt),
      expires_at: iso(exported.expiresAt),
      size: exported.sizeBytes,
      url: Option.getOrNull(
        Option.map(link, (l) => `/api/v10/exports/${exported.id}?token=${encodeURIComponent(Redacted.value(l.token))}`)
      ),
      url_expires_at: Option.getOrNull(Option.map(link, (l) => DateTime.formatIso(l.expiresAt)))
    })
  })

export const layer: GroupLayer.Authorized<
  "users",
  | DataExports.DataExports
  | ProfileImages.ProfileImages
  | AccountSnapshot.AccountSnapshots
  | Memberships.Memberships
  | UsersRepo.UsersRepo
  | ProfilesRepo.ProfilesRepo
  | RelationshipsRepo.RelationshipsRepo
  | EventBus.EventBus
  | PhoneChange.PhoneChange
  | EmailBinding.EmailBinding
  | AccountDeletion.AccountDeletion
> = HttpApiBuilder.group(RestApi.RestApi, "users", (handlers) =>
  Effect.gen(function* () {
    const users = yield* UsersRepo.UsersRepo
    const profiles = yield* ProfilesRepo.ProfilesRepo
    const email = yield* EmailBinding.EmailBinding
    const phones = yield* PhoneChange.PhoneChange
    const deletions = yield* AccountDeletion.AccountDeletion
    const exports = yield* DataExports.DataExports
    const relationships = yield* RelationshipsRepo.RelationshipsRepo
    const events = yield* EventBus.EventBus
    const memberships = yield* Memberships.Memberships
    const currentUser = CurrentUserView.make({ snapshots: yield* AccountSnapshot.AccountSnapshots, memberships })
    const edits = ProfileEdits.make({
      users,
      profiles,
      events,
      images: yield* ProfileImages.ProfileImages,
      relationships,
      memberships
    })
    const mine = Effect.flatMap(Principal.requireUser, (user) => currentUser(user.userId, false))

    return handlers
      .handle("me", () =>
        Effect.flatMap(Principal.CurrentPrincipal, (principal) =>
          currentUser(principal.userId, principal.kind === "bot")
        )
      )
      .handle("updateMe", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          yield* edits.updateProfile(user.userId, payload)
          return yield* currentUser(user.userId, false)
        })
      )
      .handle("guildOrder", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          // Kept as chosen (duplicates dropped); shown filtered to the servers the user is in.
          yield* profiles.update(user.userId, { guildOrder: [...new Set(payload.guilds)] })
        })
      )
      .handle("settings", () => Effect.flatMap(Principal.requireUser, (user) => edits.settings(user.userId)))
      .handle("updateSettings", ({ payload }) =>
        Effect.flatMap(Principal.requireUser, (user) => edits.updateSettings(user.userId, payload))
      )
      .handle("startPhoneChange", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          const request = yield* HttpServerRequest.HttpServerRequest
          const started = yield* phones.start({
            userId: user.userId,
            password: Redacted.make(payload.password),
            phone: payload.phone,
            address: addressOf(request)
          })
          return startedView(started)
        }).pipe(refusingPhoneChange)
      )
      .handle("confirmPhoneChange", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          yield* phones.complete({ userId: user.userId, verificationId: payload.verification_id, code: payload.code })
          return yield* currentUser(user.userId, false)
        }).pipe(refusingPhoneChange)
      )
      .handle("addEmail", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          yield* email.add({ userId: user.userId, password: Redacted.make(payload.password), email: payload.email })
          return yield* currentUser(user.userId, false)
        }).pipe(refusing)
      )
      .handle("removeEmail", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          yield* email.remove({ userId: user.userId, password: Redacted.make(payload.password) })
          return yield* currentUser(user.userId, false)
        }).pipe(refusing)
      )
      .handle("resendEmail", () =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          yield* email.resend(user.userId)
          return yield* mine
        }).pipe(refusing)
      )
      .handle("requestDeletion", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          const deletion = yield* deletions.request({ userId: user.userId, password: Redacted.make(payload.password) })
          return deletionView(Option.some(deletion))
        }).pipe(refusing)
      )
      .handle("cancelDeletion", () =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          return deletionView(yield* deletions.cancel(user.userId))
        })
      )
      .handle("relationships", () =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          const rows = yield* relationships.list(user.userId)
          const views = yield* Effect.forEach(rows, (row) =>
            Effect.gen(function* () {
              const other = yield* users.findById(row.otherId)
              if (Option.isNone(other)) return Option.none()
              return Option.some({
                id: row.otherId,
                type: row.type,
                nickname: row.nickname,
                since: DateTime.formatIso(row.since),
                user: CurrentUserView.publicView(other.value, yield* profiles.get(row.otherId), false)
              })
            })
          )
          return views.flatMap((view) => Option.toArray(view))
        })
      )
      .handle("dataExport", () =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          return exportView(yield* exports.latest(user.userId))
        })
      )
      .handle("requestDataExport", () =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          const queued = yield* exports.request(user.userId)
          return exportView(Option.some({ export: queued, link: Option.none() }))
        }).pipe(refusing)
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
