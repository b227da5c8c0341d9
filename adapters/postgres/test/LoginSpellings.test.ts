/**
 * Login's failure budgets on PostgreSQL are the account's whatever the spelling of its e-mail
 * (issue 16). PostgreSQL's lower() folds more than JavaScript's toLowerCase: under C.UTF-8 "İ"
 * (U+0130) lowers to "i" there, and to "i̇" in JavaScript. The lookup found the account by any such
 * spelling while the budgets were keyed by the JavaScript spelling, so each variant had a fresh
 * budget: eight more sets of ten guesses for an address with three i's, from one client address.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Account } from "@veche/auth"
import { TestHost } from "@veche/test-host"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { awaitMessage, freshAddress, json, PASSWORD, post, register } from "~/test/support/Accounts"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

const host = () =>
  TestHost.layer({
    repositories: PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  })

const loginFrom = (address: string, login: string, password: string) =>
  post("/api/v10/auth/login", { login, password, captcha_token: "dev" }, undefined, address)

describe.runIf(url !== undefined && url !== "")("Account.budgetKey against PostgreSQL's lower()", () => {
  layer(PgTestSchema.layer(Redacted.make(url ?? "")), { timeout: 60_000 })((it) => {
    it.effect("folds every code point together with what lower() makes of it, and a final sigma too", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ c: string; l: string }>`
          SELECT chr(n) AS c, lower(chr(n)) AS l FROM generate_series(1, 1114111) AS n
          WHERE n NOT BETWEEN 55296 AND 57343 AND lower(chr(n)) <> chr(n)`
        expect(rows.length).toBeGreaterThan(1000)
        const apart = rows.filter(({ c, l }) => Account.budgetKey(`${c}@x`) !== Account.budgetKey(`${l}@x`))
        expect(apart.map(({ c, l }) => [c.codePointAt(0)?.toString(16), l])).toEqual([])
        const [word] = yield* sql<{ l: string }>`SELECT lower(${"ΑΣ@x.ru"}) AS l`
        expect(Account.budgetKey("ΑΣ@x.ru")).toBe(Account.budgetKey(word?.l ?? ""))
      })
    )
  })
})

describe.runIf(url !== undefined && url !== "")("Login budgets by e-mail spelling (PostgreSQL)", () => {
  layer(host(), { timeout: 60_000 })((it) => {
    it.effect("a spelling PostgreSQL folds to the account's address shares its per-address budget", () =>
      Effect.gen(function* () {
        const phone = `+7926444${String(process.pid % 10_000).padStart(4, "0")}`
        const email = `victim${process.pid}@mail.example`
        yield* register(phone, `spelling_${process.pid % 1000}`, { email })
        const letter = yield* awaitMessage(email, "email_verify")
        expect((yield* post("/api/v10/auth/email/verify", { token: letter?.token })).status).toBe(200)
        const spelled = email.replace("i", "\u0130")
        // The variant does reach the account: its right password logs in.
        expect((yield* loginFrom(freshAddress(), spelled, PASSWORD)).status).toBe(200)

        const from = freshAddress()
        for (let i = 0; i < 10; i++) expect((yield* loginFrom(from, email, `wrong ${i}`)).status).toBe(401)
        expect((yield* loginFrom(from, email, "wrong 10")).status).toBe(429)
        const variant = yield* loginFrom(from, spelled, "wrong 11")
        expect({ status: variant.status, body: yield* json(variant) }).toMatchObject({ status: 429 })
      })
    )
  })
})
