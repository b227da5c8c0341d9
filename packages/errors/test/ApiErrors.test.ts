/**
 * The error classes: each one's wire body and status, constructor defaults and overrides, decoding a
 * body back into the class, and the same answers through a real HttpApi (the path handlers use).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrorsModule from "../src/ApiErrors.ts"
import * as ErrorCatalogue from "../src/ErrorCatalogue.ts"
import * as FormErrors from "../src/FormErrors.ts"
import { RateLimited } from "../src/RateLimited.ts"

// A plain object, so tests can look classes up by entry name.
const ApiErrors = { ...ApiErrorsModule }

const formTree = FormErrors.field(["username"], "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")

/** One instance per entry; the classes that require fields get them. */
const sample = (name: ErrorCatalogue.Name) => {
  switch (name) {
    case "InvalidFormBody":
      return new ApiErrors.InvalidFormBody({ errors: formTree })
    case "AutoModBlocked":
      return new ApiErrors.AutoModBlocked({
        errors: { rule_name: "no links" }
      })
    default:
      return new ApiErrors[name]()
  }
}

/** The body an entry must answer with, written from the catalogue data by hand. */
const expectedBody = (name: ErrorCatalogue.Name) => {
  const { code, message } = ErrorCatalogue.get(name)
  switch (name) {
    case "InvalidFormBody":
      return { code, message, errors: formTree }
    case "AutoModBlocked":
      return { code, message, errors: { rule_name: "no links" } }
    case "TwoFactorRequired":
      return { code, message, mfa: true }
    default:
      return { code, message }
  }
}

const classOf = (name: ErrorCatalogue.Name) => ApiErrors[name]
const encode = (name: ErrorCatalogue.Name) => Schema.encodeUnknownSync(classOf(name))(sample(name))
const statusOf = (name: ErrorCatalogue.Name) => classOf(name).ast.annotations?.httpApiStatus

describe("ApiErrors", () => {
  it("has one class per catalogue entry, tagged with the entry's name", () => {
    for (const name of ErrorCatalogue.names) {
      const error = sample(name)
      expect(error._tag).toBe(name)
      expect(error).toBeInstanceOf(Error)
    }
    // ...and no class that is not in the catalogue
    expect(Object.keys(ApiErrors).sort()).toEqual([...ErrorCatalogue.names].sort())
  })

  it.each(ErrorCatalogue.names)("%s encodes to its exact body and status", (name) => {
    expect(encode(name)).toEqual(expectedBody(name))
    expect(statusOf(name)).toBe(ErrorCatalogue.get(name).status)
  })

  it("writes the spec's bodies (spot checks with literal JSON)", () => {
    expect(JSON.stringify(encode("UnknownGuild"))).toBe('{"code":10004,"message":"Unknown Guild"}')
    expect(JSON.stringify(encode("TwoFactorRequired"))).toBe(
      '{"code":60003,"message":"Two factor is required for this operation","mfa":true}'
    )
    expect(JSON.stringify(encode("TwoFactorRequiredForOperation"))).toBe(
      '{"code":60003,"message":"Two factor is required for this operation"}'
    )
    expect(JSON.stringify(encode("NotFound"))).toBe('{"code":0,"message":"404: Not Found"}')
    expect(JSON.stringify(encode("RequestEntityTooLarge"))).toBe('{"code":40005,"message":"Request entity too large"}')
    expect(JSON.stringify(encode("InvalidJson"))).toBe(
      '{"code":50109,"message":"The request body contains invalid JSON."}'
    )
    expect(statusOf("TwoFactorRequired")).toBe(401)
    expect(statusOf("TwoFactorRequiredForOperation")).toBe(403)
    expect(statusOf("TargetNotInVoice")).toBe(400)
    expect(statusOf("VoiceStateNotFound")).toBe(404)
    expect(statusOf("SlowmodeRateLimit")).toBe(429)
  })

  it("constructs with no argument or an empty one", () => {
    const bare = new ApiErrors.UnknownGuild()
    const empty = new ApiErrors.UnknownGuild({})
    for (const error of [bare, empty]) {
      expect({ tag: error._tag, code: error.code, message: error.message }).toEqual({
        tag: "UnknownGuild",
        code: 10004,
        message: "Unknown Guild"
      })
    }
  })

  it("takes a message per instance (a platform block states reason and term)", () => {
    const banned = new ApiErrors.Banned({ message: "Your account is blocked: spam. Until 2026-12-01." })
    expect(Schema.encodeUnknownSync(ApiErrors.Banned)(banned)).toEqual({
      code: 40007,
      message: "Your account is blocked: spam. Until 2026-12-01."
    })
    const automod = new ApiErrors.AutoModBlocked({
      message: "No invite links here",
      errors: { rule_name: "invites" }
    })
    expect(Schema.encodeUnknownSync(ApiErrors.AutoModBlocked)(automod)).toEqual({
      code: 200000,
      message: "No invite links here",
      errors: { rule_name: "invites" }
    })
  })

  it("adds `errors` to a plain answer only when given", () => {
    const withDetails = new ApiErrors.MissingPermissions({
      errors: { permission: "MANAGE_ROLES" }
    })
    expect(Schema.encodeUnknownSync(ApiErrors.MissingPermissions)(withDetails)).toEqual({
      code: 50013,
      message: "Missing Permissions",
      errors: { permission: "MANAGE_ROLES" }
    })
  })

  it("decodes a body back into its class, and refuses another entry's code", () => {
    const decoded = Schema.decodeUnknownSync(ApiErrors.UnknownUser)({ code: 10013, message: "Unknown User" })
    expect(decoded).toBeInstanceOf(ApiErrors.UnknownUser)
    expect(decoded._tag).toBe("UnknownUser")
    const either = Schema.Union([ApiErrors.UnknownUser, ApiErrors.UnknownGuild])
    expect(Schema.decodeUnknownSync(either)({ code: 10004, message: "Unknown Guild" })).toBeInstanceOf(
      ApiErrors.UnknownGuild
    )
    expect(Schema.is(ApiErrors.UnknownUser)(new ApiErrors.UnknownGuild())).toBe(false)
    expect(() => Schema.decodeUnknownSync(ApiErrors.UnknownUser)({ code: 10004, message: "Unknown User" })).toThrow()
  })

  it.effect("fails an Effect and is caught by its tag", () =>
    Effect.gen(function* () {
      const caught = yield* Effect.fail(new ApiErrors.UnknownChannel()).pipe(
        Effect.catchTag("UnknownChannel", (error) => Effect.succeed(`caught ${error.code}`))
      )
      expect(caught).toBe("caught 10003")
      const yielded = yield* Effect.flip(
        Effect.gen(function* () {
          return yield* new ApiErrors.MissingAccess()
        })
      )
      expect(yielded._tag).toBe("MissingAccess")
    })
  )

  it.effect("builds InvalidFormBody from a decoding failure and by hand", () =>
    Effect.gen(function* () {
      const Body = Schema.Struct({ username: Schema.String.check(Schema.isBetweenLength(2, 32)) })
      const schemaError = yield* Effect.flip(Schema.decodeUnknownEffect(Body)({ username: "x" }))
      const expected = {
        code: 50035,
        message: "Invalid Form Body",
        errors: {
          username: {
            _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 2 and 32 in length." }]
          }
        }
      }
      const encode = Schema.encodeUnknownSync(ApiErrors.InvalidFormBody)
      expect(encode(ApiErrors.InvalidFormBody.fromSchemaError(schemaError))).toEqual(expected)
      expect(encode(ApiErrors.InvalidFormBody.fromIssue(schemaError.issue))).toEqual(expected)
      const taken = ApiErrors.InvalidFormBody.field(["username"], "USERNAME_ALREADY_TAKEN", "Username is unavailable.")
      expect(encode(taken)).toEqual({
        code: 50035,
        message: "Invalid Form Body",
        errors: {
          username: {
            _errors: [{ code: "USERNAME_ALREADY_TAKEN", message: "Username is unavailable." }]
          }
        }
      })
    })
  )
})

// Every class declared on one endpoint of a real HttpApi: the handler fails with the named error.
const allErrors = ErrorCatalogue.names.map(classOf)
const Api = HttpApi.make("errors").add(
  HttpApiGroup.make("errors").add(
    HttpApiEndpoint.get("fail", "/errors/:name", {
      params: { name: Schema.Literals(ErrorCatalogue.names) },
      success: Schema.String,
      error: [...allErrors, RateLimited]
    }),
    HttpApiEndpoint.get("rateLimited", "/rate-limited", { success: Schema.String, error: RateLimited })
  )
)
const Handlers = HttpApiBuilder.group(Api, "errors", (handlers) =>
  handlers
    .handle("fail", ({ params }) => Effect.fail(sample(params.name)))
    .handle("rateLimited", () => Effect.fail(new RateLimited({ retry_after: 1.25, global: true })))
)
const app = HttpApiBuilder.layer(Api).pipe(Layer.provide(Handlers), Layer.provide(HttpServer.layerServices))

describe("ApiErrors through HttpApi", () => {
  it("answers every entry at its status with its exact body, and 429 with the rate-limit body", async () => {
    const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true })
    try {
      for (const name of ErrorCatalogue.names) {
        const response = await handler(new Request(`http://test/errors/${name}`))
        expect({ name, status: response.status, body: await response.json() }).toEqual({
          name,
          status: ErrorCatalogue.get(name).status,
          body: expectedBody(name)
        })
      }
      const limited = await handler(new Request("http://test/rate-limited"))
      expect(limited.status).toBe(429)
      expect(await limited.text()).toBe('{"message":"You are being rate limited.","retry_after":1.25,"global":true}')
    } finally {
      await dispose()
    }
  })
})

describe("ApiErrors in OpenAPI", () => {
  it("documents the errors by status, with the recursive form-error tree as a component", () => {
    const spec = OpenApi.fromApi(Api)
    const responses = spec.paths["/errors/{name}"]?.get?.responses ?? {}
    expect(Object.keys(responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "405",
      "409",
      "413",
      "415",
      "429",
      "500",
      "501",
      "502",
      "503"
    ])
    expect(spec.components.schemas.FormErrorTree).toEqual({
      type: "object",
      additionalProperties: {
        anyOf: [
          { type: "array", items: { $ref: "#/components/schemas/FormError" } },
          { $ref: "#/components/schemas/FormErrorTree" }
        ]
      }
    })
  })
})
