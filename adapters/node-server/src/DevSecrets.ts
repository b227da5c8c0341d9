/**
 * Dev servers without SERVICE_CODE_SECRET / SERVICE_SECRET_KEYS: instead of a random key per
 * process (which would strand every TOTP secret and pending code at the next restart, while the
 * embedded database keeps the accounts), the keys are made once and kept in the data folder
 * (`dev-secrets.json`, readable by the owner only). Values set in the environment always win; other
 * environments never get here (they must configure their keys).
 */
import { randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Config, ConfigProvider, Effect, Layer, Schema } from "effect"

const FILE = "dev-secrets.json"

const Stored = Schema.Struct({ SERVICE_CODE_SECRET: Schema.String, SERVICE_SECRET_KEYS: Schema.String })
type Stored = typeof Stored.Type
const decode = Schema.decodeUnknownSync(Schema.fromJsonString(Stored))

const fresh = (): Stored => ({
  SERVICE_CODE_SECRET: randomBytes(32).toString("hex"),
  SERVICE_SECRET_KEYS: `dev:${randomBytes(32).toString("base64")}`
})

const readOrCreate = (dataDir: string): Stored => {
  const path = join(dataDir, FILE)
  try {
    return decode(readFileSync(path, "utf8"))
  } catch {
    // Like the embedded PostgreSQL's own folders: enterable, so that as root its system user gets
    // through (it may be created here first). The file itself is private.
    mkdirSync(dataDir, { recursive: true, mode: 0o755 })
    const secrets = fresh()
    // `wx`: two servers starting on one folder do not overwrite each other's keys.
    writeFileSync(path, JSON.stringify(secrets), { mode: 0o600, flag: "wx" })
    chmodSync(path, 0o600)
    return secrets
  }
}

/**
 * A fallback config provider with the kept keys, when this is a dev server and a key is missing
 * from the environment; nothing otherwise. A folder that cannot be written leaves the per-process
 * keys in place (with the warnings their layers log).
 */
export const layer = (dataDir: string): Layer.Layer<never> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const env = yield* Config.String("SERVICE_ENV").pipe(Config.withDefault("dev"))
      const code = yield* Config.String("SERVICE_CODE_SECRET").pipe(Config.withDefault(""))
      const keys = yield* Config.String("SERVICE_SECRET_KEYS").pipe(Config.withDefault(""))
      if (env !== "dev" || (code !== "" && keys !== "")) return Layer.empty
      const secrets = yield* Effect.try(() => readOrCreate(dataDir)).pipe(
        Effect.tapError((e) => Effect.logWarning(`dev secrets not kept in ${dataDir}: ${String(e)}`)),
        Effect.option
      )
      if (secrets._tag === "None") return Layer.empty
      yield* Effect.logInfo(`dev keys for codes and sealed secrets are kept in ${join(dataDir, FILE)}`)
      return ConfigProvider.layerAdd(ConfigProvider.fromUnknown(secrets.value))
    }).pipe(Effect.orElseSucceed(() => Layer.empty))
  )
