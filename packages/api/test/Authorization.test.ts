/**
 * Which routes take credentials is part of the contract. A group declares `Authorization` once,
 * after its routes: a route added to a group after that line would silently be public, so the
 * public routes are pinned here, and every group is all one or all the other.
 */
import { describe, expect, it } from "@effect/vitest"
import { HttpApi } from "effect/http-api"
import { Authorization, RestApi } from "../src/index.ts"

const routes = () => {
  const found: Array<{ group: string; route: string; authorized: boolean }> = []
  HttpApi.reflect(RestApi.RestApi, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint }) => {
      found.push({
        group: group.identifier,
        route: `${endpoint.method} ${endpoint.path}`,
        authorized: endpoint.middlewares.has(Authorization.Authorization)
      })
    }
  })
  return found
}

describe("Authorization in the contract", () => {
  it("the public routes are exactly these", () => {
    expect(
      routes()
        .filter((route) => !route.authorized)
        .map(({ route }) => route)
        .sort()
    ).toEqual(
      [
        "GET /version",
        "GET /gateway",
        "GET /auth/methods",
        "POST /auth/register/email",
        "POST /auth/recover/phone",
        "POST /auth/recover/verify",
        "POST /auth/email/verify",
        "POST /auth/recover/email",
        "POST /auth/recover/email/verify",
        "POST /auth/register/phone",
        "POST /auth/register/verify",
        "POST /auth/login",
        "GET /auth/verify/:verification_id",
        "POST /auth/verify/:verification_id/sms",
        "POST /auth/refresh",
        "GET /exports/:export_id",
        "GET /discovery/categories",
        "GET /discovery/guilds",
        "GET /discovery/guilds/:slug",
        "GET /guilds/:guild_id/preview",
        // the payment provider's webhook: the payment is re-read from the provider, never believed
        "POST /billing/notifications",
        "GET /dev/outbox",
        "GET /icons/:guild_id/:hash",
        "GET /banners/:guild_id/:hash",
        "GET /avatars/:user_id/:hash",
        "GET /user-banners/:user_id/:hash",
        "GET /app-icons/:application_id/:hash",
        // the OAuth token routes: the client proves itself in the form body or by HTTP Basic
        "POST /oauth2/token",
        "POST /oauth2/token/revoke"
      ].sort()
    )
  })

  it("each group's routes all take credentials or none does", () => {
    const byGroup = new Map<string, Set<boolean>>()
    for (const { group, authorized } of routes()) byGroup.set(group, (byGroup.get(group) ?? new Set()).add(authorized))
    expect([...byGroup].filter(([, kinds]) => kinds.size > 1).map(([group]) => group)).toEqual([])
  })
})
