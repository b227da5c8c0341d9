/** Handlers of the Users group. */
import { AccountSnapshot, EmailBinding, PhoneChange } from "@veche/auth"
import { NotFound, UnknownUser } from "@veche/errors"
import { ProfileImages } from "@veche/media"
import { EventBus, Snowflake } from "@veche/platform"
import { AccountDeletion, DataExports, type Deletion } from "@veche/privacy"
import { Memberships, ProfilesRepo, RelationshipsRepo, UsersRepo } from "@veche/users"
import { DateTime, Effect, Option, Redacted, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal, requireUser } from "../Principal.ts"
import { RestApi } from "../RestApi.ts"
import { refusing, refusingPhoneChange } from "./AuthRefusals.ts"
import { addressOf, startedView } from "./Client.ts"
import * as CurrentUserView from "./CurrentUserView.ts"
import * as PrivacyRefusals from "./PrivacyRefusals.ts"
import * as ProfileEdits from "./ProfileEdits.ts"

const isSnowflake = Schema.is(Snowflake.Snowflake)

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

export const layer = HttpApiBuilder.group(RestApi, "users", (handlers) =>
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
          return startedView(started)
        }).pipe(refusingPhoneChange)
      )
      .handle("confirmPhoneChange", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          yield* phones.complete({ userId: user.userId, verificationId: payload.verification_id, code: payload.code })
          return yield* currentUser(user.userId, false)
        }).pipe(refusingPhoneChange)
      )
      .handle("addEmail", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          yield* email.add({ userId: user.userId, password: Redacted.make(payload.password), email: payload.email })
          return yield* currentUser(user.userId, false)
        }).pipe(refusing)
      )
      .handle("removeEmail", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          yield* email.remove({ userId: user.userId, password: Redacted.make(payload.password) })
          return yield* currentUser(user.userId, false)
        }).pipe(refusing)
      )
      .handle("resendEmail", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          yield* email.resend(user.userId)
          return yield* mine
        }).pipe(refusing)
      )
      .handle("requestDeletion", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* requireUser
          const deletion = yield* deletions.request({ userId: user.userId, password: Redacted.make(payload.password) })
          return deletionView(Option.some(deletion))
        }).pipe(PrivacyRefusals.refusing)
      )
      .handle("cancelDeletion", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          return deletionView(yield* deletions.cancel(user.userId))
        })
      )
      .handle("relationships", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
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
          const user = yield* requireUser
          return exportView(yield* exports.latest(user.userId))
        })
      )
      .handle("requestDataExport", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          const queued = yield* exports.request(user.userId)
          return exportView(Option.some({ export: queued, link: Option.none() }))
        }).pipe(PrivacyRefusals.refusing)
      )
      .handle("downloadDataExport", ({ params, query }) =>
        Effect.gen(function* () {
          // Anything that is not a valid link for this export looks the same: 404.
          if (query.token === undefined || !isSnowflake(params.export_id)) return yield* new NotFound()
          const archive = yield* exports.download(
            Snowflake.Snowflake.make(params.export_id),
            Redacted.make(query.token)
          )
          if (Option.isNone(archive)) return yield* new NotFound()
          return HttpServerResponse.uint8Array(archive.value, {
            contentType: "application/zip",
            headers: {
              "content-disposition": `attachment; filename="veche-export-${params.export_id}.zip"`,
              "cache-control": "no-store"
            }
          })
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
