/**
 * Encryption at rest for small secrets the service must read back (TOTP secrets, queued messages
 * that carry codes): AES-256-GCM with a fresh 96-bit nonce per seal, and an associated-data string
 * (e.g. the owner's user id) that must match on open, so a sealed value copied to another row does
 * not open there.
 *
 * Keys form a ring: the first key seals, every key opens. An envelope names its key, so rotating
 * means putting a new key first and keeping the old ones until nothing sealed with them is left.
 *
 * Envelope: `v1.<keyId>.<nonce>.<ciphertext>.<tag>`, the last three base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { Config, ConfigProvider, Context, Effect, Layer, Option, Redacted, Schema } from "effect"

/** One key of the ring: an id (letters, digits, `_`, `-`) and 32 random bytes. */
export interface SecretKey {
  readonly id: string
  readonly key: Redacted.Redacted<Uint8Array>
}

/** The envelope is malformed, names an unknown key, or fails authentication (tampered, wrong data). */
export class SecretBoxError extends Schema.TaggedError<SecretBoxError>()("SecretBoxError", {
  reason: Schema.String
}) {}

const VERSION = "v1"
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/
const NONCE_BYTES = 12
const TAG_BYTES = 16

export class SecretBox extends Context.Service<
  SecretBox,
  {
    readonly seal: (plaintext: string, associatedData: string) => Effect.Effect<string>
    readonly open: (envelope: string, associatedData: string) => Effect.Effect<string, SecretBoxError>
  }
>()("@veche/platform/SecretBox") {
  static readonly make = (keys: readonly [SecretKey, ...Array<SecretKey>]): SecretBox["Service"] => {
    for (const key of keys) {
      if (!KEY_ID.test(key.id)) throw new Error(`SecretBox: bad key id ${JSON.stringify(key.id)}`)
      if (Redacted.value(key.key).length !== 32) throw new Error(`SecretBox: key ${key.id} is not 32 bytes`)
    }
    const ring = new Map(keys.map((key) => [key.id, Redacted.value(key.key)]))
    const active = keys[0]
    const activeKey = Redacted.value(active.key)

    const seal = (plaintext: string, associatedData: string) =>
      Effect.sync(() => {
        const nonce = randomBytes(NONCE_BYTES)
        const cipher = createCipheriv("aes-256-gcm", activeKey, nonce, { authTagLength: TAG_BYTES })
        cipher.setAAD(Buffer.from(associatedData, "utf8"))
        const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
        const tag = cipher.getAuthTag()
        return [VERSION, active.id, nonce, body, tag]
          .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
          .join(".")
      })

    const open = (envelope: string, associatedData: string) =>
      Effect.suspend(() => {
        const parts = envelope.split(".")
        if (parts.length !== 5 || parts[0] !== VERSION) {
          return Effect.fail(new SecretBoxError({ reason: "malformed envelope" }))
        }
        const [, keyId, nonceText, bodyText, tagText] = parts as [string, string, string, string, string]
        const key = ring.get(keyId)
        if (key === undefined) return Effect.fail(new SecretBoxError({ reason: `unknown key ${keyId}` }))
        const nonce = Buffer.from(nonceText, "base64url")
        const tag = Buffer.from(tagText, "base64url")
        // The tag length is checked here and pinned on the decipher: without `authTagLength`, Node
        // accepts a tag cut down to 4 bytes, which a forger can guess.
        if (nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) {
          return Effect.fail(new SecretBoxError({ reason: "malformed envelope" }))
        }
        return Effect.try({
          try: () => {
            const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES })
            decipher.setAAD(Buffer.from(associatedData, "utf8"))
            decipher.setAuthTag(tag)
            const body = Buffer.from(bodyText, "base64url")
            return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8")
          },
          catch: () => new SecretBoxError({ reason: "authentication failed" })
        })
      })

    return SecretBox.of({ seal, open })
  }

  static readonly layer = (keys: readonly [SecretKey, ...Array<SecretKey>]): Layer.Layer<SecretBox> =>
    Layer.sync(SecretBox, () => SecretBox.make(keys))

  /** A random key for this process: for tests and throwaway hosts (nothing sealed survives it). */
  static readonly layerEphemeral: Layer.Layer<SecretBox> = Layer.sync(SecretBox, () =>
    SecretBox.make([{ id: "ephemeral", key: Redacted.make(new Uint8Array(randomBytes(32))) }])
  )

  /**
   * `SERVICE_SECRET_KEYS`: `id:base64key[,id:base64key…]`, the sealing key first, each key 32 bytes
   * (`openssl rand -base64 32`). Without it a dev server uses a random key for the process, with a
   * warning (what it sealed cannot be opened after a restart); other environments refuse to start.
   */
  static readonly layerConfig: Layer.Layer<SecretBox, Config.ConfigError> = Layer.unwrap(
    Effect.gen(function* () {
      const configured = yield* Config.Redacted("SERVICE_SECRET_KEYS").pipe(
        Config.option,
        Config.map(Option.filter((value) => Redacted.value(value).trim().length > 0))
      )
      const env = yield* Config.String("SERVICE_ENV").pipe(Config.withDefault("dev"))
      if (Option.isSome(configured)) {
        const parsed = parseKeyRing(Redacted.value(configured.value))
        if (typeof parsed === "string") {
          return yield* Config.fail(new ConfigProvider.SourceError({ message: `SERVICE_SECRET_KEYS: ${parsed}` }))
        }
        return SecretBox.layer(parsed)
      }
      if (env !== "dev") {
        return yield* Config.fail(
          new ConfigProvider.SourceError({ message: "SERVICE_SECRET_KEYS is required outside dev" })
        )
      }
      yield* Effect.logWarning(
        "SERVICE_SECRET_KEYS is not set: using a random key for this process (dev only; sealed secrets such as TOTP do not survive a restart)"
      )
      return SecretBox.layerEphemeral
    })
  )
}

/** Parses `id:base64[,id:base64…]`; answers a message (without key material) when it is wrong. */
export const parseKeyRing = (text: string): readonly [SecretKey, ...Array<SecretKey>] | string => {
  const keys: Array<SecretKey> = []
  const seen = new Set<string>()
  for (const entry of text.split(",").map((part) => part.trim())) {
    const colon = entry.indexOf(":")
    if (colon < 0) return "each entry is id:base64key"
    const id = entry.slice(0, colon)
    if (!KEY_ID.test(id)) return `bad key id ${JSON.stringify(id)} (letters, digits, _ and -, at most 32)`
    if (seen.has(id)) return `key id ${id} appears twice`
    const bytes = Buffer.from(entry.slice(colon + 1), "base64")
    if (bytes.length !== 32) return `key ${id} must be 32 bytes (base64 of 32 random bytes)`
    seen.add(id)
    keys.push({ id, key: Redacted.make(new Uint8Array(bytes)) })
  }
  const [first, ...rest] = keys
  return first === undefined ? "no keys" : [first, ...rest]
}
