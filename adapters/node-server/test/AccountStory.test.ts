/**
 * A person's whole account story against the reference server as `pnpm start` runs it (embedded
 * PostgreSQL, dev providers): register by phone with the code from the dev outbox, upload an
 * avatar and fetch it from the media route, turn on TOTP
 * with an authenticator app's secret, log out, log in with the app code, keep working across a
 * restart (the sealed TOTP secret still opens), and recover the password by phone.
 */
import * as fs from "node:fs"
import { Totp } from "@veche/auth"
import { OtplibTotpCodes } from "@veche/otplib"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { dataUri, png } from "~/test/support/Png"
import { apiCaller, outboxCode, start, stopAll, tempDataDir } from "./ServerHarness.ts"

afterEach(stopAll)

const dataDir = tempDataDir()
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
const PHONE = "+79051234567"

const client = (base: string) => ({
  call: apiCaller(base),
  /** The newest message of a kind to the phone; recovery queues it after answering. */
  message: (kind: string) => outboxCode(base, PHONE, kind)
})

describe("a person's account on the reference server (embedded PostgreSQL)", () => {
  it("registers, enables TOTP, logs out and in with the app code, survives a restart, and recovers the password", async () => {
    const env = { DATABASE_URL: "", SERVICE_DATA_DIR: dataDir, SERVICE_CODE_SECRET: "", SERVICE_SECRET_KEYS: "" }
    let server = await start(env)
    let api = client(server.base)

    const started = await api.call("POST", "/auth/register/phone", { phone: PHONE, captcha_token: "dev" })
    expect(started.status).toBe(200)
    const { verification_id } = started.body as { verification_id: string }
    const registered = await api.call("POST", "/auth/register/verify", {
      verification_id,
      code: await api.message("register"),
      username: "story_person",
      password: "correct horse battery",
      date_of_birth: "1990-05-05",
      consent: true
    })
    expect(registered.status).toBe(201)
    const { access_token, user_id } = registered.body as { access_token: string; user_id: string }

    // An avatar, stored on the filesystem under the data folder and served from the media route.
    const withAvatar = await api.call("PATCH", "/users/@me", { avatar: dataUri(png(48)) }, access_token)
    expect(withAvatar.status).toBe(200)
    const avatar = (withAvatar.body as { avatar: string }).avatar
    const image = await fetch(`${server.base}/api/v10/avatars/${user_id}/${avatar}.png`)
    expect(image.status).toBe(200)
    expect(image.headers.get("content-type")).toBe("image/png")
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0)

    // Codes of the previous, current and next period are accepted, each step once. So that the
    // steps below stay inside that window, start well clear of a period boundary.
    const intoPeriod = Date.now() % (Totp.PERIOD_SECONDS * 1000)
    if (intoPeriod > 20_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoPeriod + 100))
    const stepCode = (offset: number) =>
      OtplibTotpCodes.codeAt(SECRET, Date.now() + offset * Totp.PERIOD_SECONDS * 1000)
    // Enabled with the previous period's code (an app a little behind), so step N-1 is spent.
    const enabled = await api.call(
      "POST",
      "/auth/mfa/totp",
      { password: "correct horse battery", secret: SECRET, code: stepCode(-1) },
      access_token
    )
    expect(enabled.status).toBe(200)
    const { backup_codes } = enabled.body as { backup_codes: Array<string> }
    expect(backup_codes).toHaveLength(10)

    expect((await api.call("POST", "/auth/logout", undefined, access_token)).status).toBe(204)
    expect((await api.call("GET", "/users/@me", undefined, access_token)).status).toBe(401)

    const credentials = { login: PHONE, password: "correct horse battery", captcha_token: "dev" }
    expect(await api.call("POST", "/auth/login", credentials)).toMatchObject({
      status: 401,
      body: { code: 60003, mfa: true }
    })
    expect(await api.call("POST", "/auth/login", { ...credentials, code: stepCode(-1) })).toMatchObject({
      status: 401,
      body: { code: 60008 }
    })
    expect((await api.call("POST", "/auth/login", { ...credentials, code: stepCode(0) })).status).toBe(200)

    // A restart keeps the dev keys (in the data folder): the sealed secret still opens.
    expect(await server.stop()).toBe(0)
    server = await start(env)
    api = client(server.base)
    expect(server.output()).toContain("dev keys for codes and sealed secrets are kept in")
    expect((await api.call("POST", "/auth/login", { ...credentials, code: stepCode(1) })).status).toBe(200)
    expect((await api.call("POST", "/auth/login", { ...credentials, code: backup_codes[0] })).status).toBe(200)

    // Recovery by phone: with 2FA on it also takes an app or backup code (the SMS code alone
    // answers 60003 and stays usable); a new password, every session ended, 2FA still on.
    const recovery = await api.call("POST", "/auth/recover/phone", { phone: PHONE, captcha_token: "dev" })
    expect(recovery.status).toBe(200)
    const recoverBody = {
      verification_id: (recovery.body as { verification_id: string }).verification_id,
      code: await api.message("recover"),
      new_password: "a brand new password"
    }
    expect(await api.call("POST", "/auth/recover/verify", recoverBody)).toMatchObject({
      status: 401,
      body: { code: 60003, mfa: true }
    })
    const recovered = await api.call("POST", "/auth/recover/verify", { ...recoverBody, mfa_code: backup_codes[2] })
    expect(recovered.status).toBe(200)
    const fresh = await api.call("POST", "/auth/login", {
      ...credentials,
      password: "a brand new password",
      code: backup_codes[1]
    })
    expect(fresh.status).toBe(200)
    expect(
      (await api.call("GET", "/auth/mfa", undefined, (fresh.body as { access_token: string }).access_token)).body
    ).toEqual({
      totp_enabled: true,
      backup_codes_left: 7
    })
    expect(await server.stop()).toBe(0)
  }, 90_000)
})
