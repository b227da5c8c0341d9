/** Handlers of the Users group. */
import { Principal, RestApi } from "@veche/api"
import { EmailBinding, PhoneChange } from "@veche/auth"
import type { Snowflake } from "@veche/platform"
import { AccountDeletion, DataExports, type Deletion } from "@veche/privacy"
import { CurrentUser, Profiles, Relationships } from "@veche/users"
import { DateTime, Effect, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { refusing, refusingPhoneChange } from "./AuthRefusals.ts"
import { addressOf, startedView } from "./Client.ts"
import type * as GroupLayer from "./GroupLayer.ts"
import * as PrivacyRefusals from "./PrivacyRefusals.ts"
import { refuse } from "./UsersRefusals.ts"

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
  | CurrentUser.CurrentUser
  | Profiles.Profiles
  | Relationships.Relationships
  | EmailBinding.EmailBinding
  | PhoneChange.PhoneChange
  | AccountDeletion.AccountDeletion
  | DataExports.DataExports
> = HttpApiBuilder.group(RestApi.RestApi, "users", (handlers) =>
  Effect.gen(function* () {
    const current = yield* CurrentUser.CurrentUser
    const profiles = yield* Profiles.Profiles
    const relationships = yield* Relationships.Relationships
    const email = yield* EmailBinding.EmailBinding
    const phones = yield* PhoneChange.PhoneChange
    const deletions = yield* AccountDeletion.AccountDeletion
    const exports = yield* DataExports.DataExports
    // data-first: GET /users/@me calls it on every request (a pipe builds a closure each time)
    const currentUser = (userId: Snowflake.Snowflake, bot: boolean) =>
      Effect.mapError(current.view(userId, bot), refuse)
    const mine = Effect.flatMap(Principal.requireUser, (user) => currentUser(user.userId, false))

    return handlers
      .handle("me", () =>
        Effect.flatMap(Principal.CurrentPrincipal, (principal) =>
          Effect.map(currentUser(principal.userId, principal.kind === "bot"), (user) => {
            if (principal.oauth === undefined) return user
            // An application granted `identify` sees who the user is, not how to reach them nor
            // which servers they are in (the mirrored platform gives the e-mail only under an
            // `email` scope and the servers only under `guilds`, neither of which is offered).
            const { email_pending: _pending, ...identity } = user
            return { ...identity, email: null, phone: null, guild_order: [] }
          })
        )
      )
      .handle("updateMe", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* Principal.requireUser
          yield* profiles.edit(user.userId, {
            displayName: payload.display_name,
            bio: payload.bio,
            avatar: payload.avatar,
            banner: payload.banner
          })
          return yield* currentUser(user.userId, false)
        }).pipe(Effect.mapError(refuse))
      )
      .handle("guildOrder", ({ payload }) =>
        Effect.flatMap(Principal.requireUser, (user) => profiles.setGuildOrder(user.userId, payload.guilds))
      )
      .handle("settings", () => Effect.flatMap(Principal.requireUser, (user) => profiles.settings(user.userId)))
      .handle("updateSettings", ({ payload }) =>
        Effect.flatMap(Principal.requireUser, (user) =>
          profiles.editSettings(user.userId, { status: payload.status, customStatus: payload.custom_status })
        )
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
        }).pipe(PrivacyRefusals.refusing)
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
          return (yield* relationships.list(user.userId)).map(({ relationship, user: other }) => ({
            id: relationship.otherId,
            type: relationship.type,
            nickname: relationship.nickname,
            since: DateTime.formatIso(relationship.since),
            user: other
          }))
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
        }).pipe(PrivacyRefusals.refusing)
      )
      .handle("user", ({ params }) => profiles.show(params.user_id).pipe(Effect.mapError(refuse)))
  })
)
