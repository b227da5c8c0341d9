/**
 * The one behaviour suite every AccountsRepo adapter must pass: on memory in every run (over the
 * memory UsersRepo), on PostgreSQL when DATABASE_URL is set. The UsersRepo beside it is the one the
 * accounts are stored through, so the suite can see that a refused registration left no user.
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { UsersRepo } from "@veche/users"
import { DateTime, Effect, Option } from "effect"
import type { Account } from "../../src/Account.ts"
import { AccountsRepo } from "../../src/AccountsRepo.ts"
import { Normalised, type PhoneNumber } from "../../src/Phone.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(11))

// Each test makes its own names, phones and addresses: the suite shares one store (one schema).
let counter = 0
const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${Date.now() % 1_000_000}_${++counter}`
const phoneBase = Math.floor(Math.random() * 1_000_000_000)
const uniquePhone = (): PhoneNumber =>
  Normalised.make(`+79${String((phoneBase + ++counter) % 1_000_000_000).padStart(9, "0")}`)
const uniqueEmail = (prefix: string) => `${uniqueName(prefix)}@example.org`

interface Keys {
  readonly username?: string
  readonly phone?: PhoneNumber | null
  readonly email?: string | null
}

const newAccount = Effect.fnUntraced(function* (keys: Keys = {}) {
  const id = yield* ids.next
  // Whole milliseconds: every store keeps at least that precision. The test clock stays untouched.
  const createdAt = DateTime.makeUnsafe(Math.floor(Date.now()))
  const account: Account = {
    user: { id, username: keys.username ?? uniqueName("acct"), displayName: "Account", createdAt },
    credentials: {
      userId: id,
      phone: keys.phone === undefined ? uniquePhone() : keys.phone,
      email: keys.email === undefined ? null : keys.email,
      emailVerified: false,
      passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA",
      dateOfBirth: "2000-02-29",
      createdAt,
      passwordChangedAt: null
    }
  }
  return account
})

/** Neither the user nor the credentials of a refused registration exist. */
const expectNothingOf = Effect.fnUntraced(function* (account: Account) {
  const users = yield* UsersRepo.UsersRepo
  const repo = yield* AccountsRepo
  expect(Option.isNone(yield* users.findById(account.user.id))).toBe(true)
  expect(Option.isNone(yield* repo.findByUserId(account.user.id))).toBe(true)
})

export const accountsRepoContract = (it: Vitest.MethodsNonLive<AccountsRepo | UsersRepo.UsersRepo>) => {
  it.effect("registers an account and reads it back exactly by phone, e-mail and user id", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const account = yield* newAccount({ email: uniqueEmail("Ann") })
      yield* repo.register(account)
      expect(yield* repo.findByPhone(account.credentials.phone ?? uniquePhone())).toEqual(Option.some(account))
      expect(yield* repo.findByEmail(account.credentials.email ?? "")).toEqual(Option.some(account))
      expect(yield* repo.findByUserId(account.user.id)).toEqual(Option.some(account))
      // The user is the one UsersRepo (GET /users/@me) reads.
      expect(yield* (yield* UsersRepo.UsersRepo).findById(account.user.id)).toEqual(Option.some(account.user))
    })
  )

  it.effect("keeps an e-mail registration: no phone, a confirmed address", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const base = yield* newAccount({ phone: null, email: uniqueEmail("mail") })
      const account: Account = { ...base, credentials: { ...base.credentials, emailVerified: true } }
      yield* repo.register(account)
      expect(yield* repo.findByUserId(account.user.id)).toEqual(Option.some(account))
      expect(yield* repo.findByEmail(account.credentials.email ?? "")).toEqual(Option.some(account))
    })
  )

  it.effect("finds e-mail addresses without regard to letter case", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const account = yield* newAccount({ email: uniqueEmail("Case") })
      yield* repo.register(account)
      const email = account.credentials.email ?? ""
      const upper = yield* repo.findByEmail(email.toUpperCase())
      const lower = yield* repo.findByEmail(email.toLowerCase())
      expect(Option.map(upper, (a) => a.user.id)).toEqual(Option.some(account.user.id))
      expect(Option.map(lower, (a) => a.user.id)).toEqual(Option.some(account.user.id))
      // The stored spelling is kept as given.
      expect(Option.map(upper, (a) => a.credentials.email)).toEqual(Option.some(email))
    })
  )

  it.effect("answers none for unknown phones, addresses and ids", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const ghost = yield* newAccount({ email: uniqueEmail("ghost") })
      expect(Option.isNone(yield* repo.findByPhone(ghost.credentials.phone ?? uniquePhone()))).toBe(true)
      expect(Option.isNone(yield* repo.findByEmail(ghost.credentials.email ?? ""))).toBe(true)
      expect(Option.isNone(yield* repo.findByUserId(ghost.user.id))).toBe(true)
    })
  )

  it.effect("refuses a taken phone and creates nothing", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const first = yield* newAccount()
      yield* repo.register(first)
      const second = yield* newAccount({ phone: first.credentials.phone })
      expect((yield* repo.register(second).pipe(Effect.flip))._tag).toBe("PhoneTaken")
      yield* expectNothingOf(second)
    })
  )

  it.effect("refuses a taken e-mail in any letter case and creates nothing", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const first = yield* newAccount({ phone: null, email: uniqueEmail("taken") })
      yield* repo.register(first)
      const second = yield* newAccount({ email: (first.credentials.email ?? "").toUpperCase() })
      expect((yield* repo.register(second).pipe(Effect.flip))._tag).toBe("EmailTaken")
      yield* expectNothingOf(second)
      expect(Option.isNone(yield* repo.findByPhone(second.credentials.phone ?? uniquePhone()))).toBe(true)
    })
  )

  it.effect("refuses a taken username in any letter case and creates nothing", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const first = yield* newAccount()
      yield* repo.register(first)
      const second = yield* newAccount({ username: first.user.username.toUpperCase(), email: uniqueEmail("u") })
      expect((yield* repo.register(second).pipe(Effect.flip))._tag).toBe("UsernameTaken")
      yield* expectNothingOf(second)
      // The refused registration's phone and address were not left held.
      const retry = yield* newAccount({ phone: second.credentials.phone, email: second.credentials.email })
      yield* repo.register(retry)
      expect(Option.map(yield* repo.findByPhone(retry.credentials.phone ?? uniquePhone()), (a) => a.user.id)).toEqual(
        Option.some(retry.user.id)
      )
    })
  )

  it.effect("lets exactly one of ten concurrent registrations of one phone succeed", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const phone = uniquePhone()
      const accounts = yield* Effect.forEach(Array.from({ length: 10 }), () => newAccount({ phone }))
      const results = yield* Effect.forEach(accounts, (account) => Effect.result(repo.register(account)), {
        concurrency: "unbounded"
      })
      expect(results.filter((r) => r._tag === "Success")).toHaveLength(1)
      const failures = results.flatMap((r) => (r._tag === "Failure" ? [r.failure._tag] : []))
      expect(failures).toEqual(Array.from({ length: 9 }, () => "PhoneTaken"))
      const winner = accounts.find((_, i) => results[i]?._tag === "Success")
      expect(Option.map(yield* repo.findByPhone(phone), (a) => a.user.id)).toEqual(
        Option.fromNullishOr(winner?.user.id)
      )
      for (const loser of accounts.filter((a) => a !== winner)) yield* expectNothingOf(loser)
    })
  )

  it.effect("lets exactly one of ten concurrent registrations of one username succeed", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const username = uniqueName("race")
      const accounts = yield* Effect.forEach(Array.from({ length: 10 }), () => newAccount({ username }))
      const results = yield* Effect.forEach(accounts, (account) => Effect.result(repo.register(account)), {
        concurrency: "unbounded"
      })
      expect(results.filter((r) => r._tag === "Success")).toHaveLength(1)
      const failures = results.flatMap((r) => (r._tag === "Failure" ? [r.failure._tag] : []))
      expect(failures).toEqual(Array.from({ length: 9 }, () => "UsernameTaken"))
      const winner = accounts.find((_, i) => results[i]?._tag === "Success")
      for (const loser of accounts.filter((a) => a !== winner)) {
        yield* expectNothingOf(loser)
        expect(Option.isNone(yield* repo.findByPhone(loser.credentials.phone ?? uniquePhone()))).toBe(true)
      }
    })
  )

  it.effect("lets exactly one of ten concurrent registrations of one e-mail succeed", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const email = uniqueEmail("race")
      const accounts = yield* Effect.forEach(Array.from({ length: 10 }), (_, i) =>
        newAccount({ email: i % 2 === 0 ? email : email.toUpperCase() })
      )
      const results = yield* Effect.forEach(accounts, (account) => Effect.result(repo.register(account)), {
        concurrency: "unbounded"
      })
      expect(results.filter((r) => r._tag === "Success")).toHaveLength(1)
      const failures = results.flatMap((r) => (r._tag === "Failure" ? [r.failure._tag] : []))
      expect(failures).toEqual(Array.from({ length: 9 }, () => "EmailTaken"))
    })
  )

  it.effect("a password change replaces the hash and records when, never twice the same moment", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const account = yield* newAccount()
      yield* repo.register(account)
      const next = "$argon2id$v=19$m=19456,t=2,p=1$bmV3c2FsdG5ld3NhbHQ$bmV3aGFzaG5ld2hhc2huZXdoYXNobmV3aGFzaA"
      const now = DateTime.makeUnsafe(Date.UTC(2026, 5, 1, 12))
      expect(yield* repo.changePassword(account.user.id, next, now)).toEqual(Option.some(now))
      expect(yield* repo.findByUserId(account.user.id)).toEqual(
        Option.some({ ...account, credentials: { ...account.credentials, passwordHash: next, passwordChangedAt: now } })
      )
      // A second change at the same moment (or with a clock behind) still gets its own, later value.
      const again = yield* repo.changePassword(account.user.id, next, DateTime.add(now, { seconds: -5 }))
      expect(again).toEqual(Option.some(DateTime.add(now, { milliseconds: 1 })))
      // An unknown user is left alone, not created.
      const ghost = yield* newAccount()
      expect(yield* repo.changePassword(ghost.user.id, next, now)).toEqual(Option.none())
      expect(Option.isNone(yield* repo.findByUserId(ghost.user.id))).toBe(true)
    })
  )

  it.effect("a rehash replaces the hash only while it is the one checked, and keeps the change moment", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const account = yield* newAccount()
      yield* repo.register(account)
      const old = account.credentials.passwordHash
      const rehashed = "$argon2id$v=19$m=19456,t=3,p=1$cmVoYXNoc2FsdA$cmVoYXNoZWRyZWhhc2hlZHJlaGFzaGVkcmVoYQ"
      yield* repo.rehashPassword(account.user.id, old, rehashed)
      expect(yield* repo.findByUserId(account.user.id)).toEqual(
        Option.some({ ...account, credentials: { ...account.credentials, passwordHash: rehashed } })
      )
      // A login that checked the old password rehashes after a recovery set a new one: nothing changes.
      const recovered = "$argon2id$v=19$m=19456,t=2,p=1$cmVjb3ZlcmVk$cmVjb3ZlcmVkcmVjb3ZlcmVkcmVjb3ZlcmVkcmVj"
      const changedAt = DateTime.makeUnsafe(Date.UTC(2026, 5, 2))
      yield* repo.changePassword(account.user.id, recovered, changedAt)
      yield* repo.rehashPassword(account.user.id, rehashed, "$argon2id$v=19$stale")
      expect(Option.map(yield* repo.findByUserId(account.user.id), (a) => a.credentials)).toEqual(
        Option.some({ ...account.credentials, passwordHash: recovered, passwordChangedAt: changedAt })
      )
    })
  )

  it.effect("binds a confirmed e-mail unless another account holds it, in any letter case", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const holder = yield* newAccount({ email: uniqueEmail("holder") })
      const binder = yield* newAccount()
      yield* repo.register(holder)
      yield* repo.register(binder)
      const taken = yield* repo
        .bindEmail(binder.user.id, (holder.credentials.email ?? "").toUpperCase())
        .pipe(Effect.flip)
      expect(taken._tag).toBe("EmailTaken")
      const address = uniqueEmail("Binder")
      yield* repo.bindEmail(binder.user.id, address)
      const bound = Option.getOrThrow(yield* repo.findByEmail(address.toLowerCase()))
      expect(bound.user.id).toBe(binder.user.id)
      expect(bound.credentials).toMatchObject({ email: address, emailVerified: true })
      // binding its own address again is fine
      yield* repo.bindEmail(binder.user.id, address)
    })
  )

  it.effect("of concurrent bindings of one address to different accounts exactly one succeeds", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const accounts = yield* Effect.all(Array.from({ length: 5 }, () => newAccount()))
      for (const account of accounts) yield* repo.register(account)
      const address = uniqueEmail("race")
      const results = yield* Effect.all(
        accounts.map((account) => Effect.result(repo.bindEmail(account.user.id, address))),
        { concurrency: "unbounded" }
      )
      expect(results.filter((result) => result._tag === "Success")).toHaveLength(1)
    })
  )

  it.effect("moves an account to a free phone, refuses a taken one, and unbinds an address", () =>
    Effect.gen(function* () {
      const repo = yield* AccountsRepo
      const mover = yield* newAccount({ email: uniqueEmail("mover") })
      const holder = yield* newAccount()
      yield* repo.register(mover)
      yield* repo.register(holder)
      const free = uniquePhone()
      yield* repo.setPhone(mover.user.id, free)
      expect(Option.getOrThrow(yield* repo.findByPhone(free)).user.id).toBe(mover.user.id)
      expect(Option.isNone(yield* repo.findByPhone(mover.credentials.phone ?? free))).toBe(
        mover.credentials.phone !== free
      )
      const taken = yield* repo.setPhone(mover.user.id, holder.credentials.phone ?? free).pipe(Effect.flip)
      expect(taken._tag).toBe("PhoneTaken")
      yield* repo.unbindEmail(mover.user.id)
      expect(Option.getOrThrow(yield* repo.findByUserId(mover.user.id)).credentials).toMatchObject({
        email: null,
        emailVerified: false
      })
      expect(Option.isNone(yield* repo.findByEmail(mover.credentials.email ?? ""))).toBe(true)
    })
  )
}
