/**
 * Where the embedded PostgreSQL keeps its data when SERVICE_DATA_DIR is not set: `./.veche`, unless
 * this process is root and the system user PostgreSQL then runs as cannot enter it (a clone inside
 * `mktemp -d` or /root). Then a stable folder of this project under /var/lib/veche is used instead,
 * said in the log, so `./dev start` works wherever the project lives without changing the
 * permissions of folders we did not create. A configured folder is never moved: it fails clearly.
 */
import { createHash } from "node:crypto"
import * as path from "node:path"
import { Effect, Option } from "effect"
import type { EmbeddedPostgresError } from "./internal/EmbeddedPostgresError.ts"
import * as SystemUser from "./internal/systemUser.ts"

export const FALLBACK_ROOT = "/var/lib/veche"

/** The same project folder always maps to the same fallback, so data survives restarts there too. */
export const fallbackFor = (preferred: string): string =>
  path.join(FALLBACK_ROOT, createHash("sha256").update(path.resolve(preferred)).digest("hex").slice(0, 16))

export const resolve = (preferred: string): Effect.Effect<string, EmbeddedPostgresError> =>
  Effect.gen(function* () {
    const absolute = path.resolve(preferred)
    const user = yield* SystemUser.runAs
    if (Option.isNone(user)) return absolute
    const blocking = yield* SystemUser.firstBlocking(absolute, user.value)
    if (Option.isNone(blocking)) return absolute
    const fallback = fallbackFor(absolute)
    yield* Effect.logWarning(
      `${absolute} is out of reach of the system user "${user.value.user}" that PostgreSQL runs as (${SystemUser.describeBlocking(blocking.value)}); keeping this project's data in ${fallback} instead. Set SERVICE_DATA_DIR to choose a folder.`
    )
    return fallback
  })
