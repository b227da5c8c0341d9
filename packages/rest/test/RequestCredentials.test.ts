import { describe, expect, it } from "@effect/vitest"
import * as OpaqueSecrets from "@veche/platform/OpaqueSecrets"
import { HttpServerRequest } from "effect/http"
import * as RequestCredentials from "../src/RequestCredentials.ts"

const requestWith = (authorization: string | undefined) =>
  HttpServerRequest.fromWeb(
    new Request("http://127.0.0.1/", authorization === undefined ? {} : { headers: { authorization } })
  )

describe("RequestCredentials", () => {
  it("reads the scheme and token and digests the token as the token stores do", () => {
    // SHA-256 of "abc" in hex: what the accounts' Tokens and the bots' secrets store and look up.
    const sha256OfAbc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    expect(OpaqueSecrets.digestOf("abc")).toBe(sha256OfAbc)
    expect(RequestCredentials.parse("bearer  abc ")).toEqual({
      scheme: "Bearer",
      token: "abc",
      digest: sha256OfAbc,
      known: `u${sha256OfAbc}`
    })
    expect(RequestCredentials.parse("Bot abc")).toMatchObject({ scheme: "Bot", known: `b${sha256OfAbc}` })
  })

  it("tells a missing header from a malformed one", () => {
    expect(RequestCredentials.parse(undefined)).toBe("missing")
    expect(RequestCredentials.parse("  ")).toBe("missing")
    expect(RequestCredentials.parse("Bearer")).toBe("malformed")
    expect(RequestCredentials.parse("Basic abc")).toBe("malformed")
    expect(RequestCredentials.parse("Bearer a\u00e9b")).toBe("malformed")
    expect(RequestCredentials.parse("Bearer a b")).toBe("malformed")
  })

  it("parses and digests a header once, and again when the header changes", () => {
    const first = RequestCredentials.of(requestWith("Bearer vat_abc"))
    expect(RequestCredentials.of(requestWith("Bearer vat_abc"))).toBe(first)
    const other = RequestCredentials.of(requestWith("Bearer vat_def"))
    expect(other).toMatchObject({ token: "vat_def", digest: OpaqueSecrets.digestOf("vat_def") })
    expect(RequestCredentials.of(requestWith(undefined))).toBe("missing")
    expect(RequestCredentials.of(requestWith("Bearer vat_abc"))).toEqual(first)
  })
})
