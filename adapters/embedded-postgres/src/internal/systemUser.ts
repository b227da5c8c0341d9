/**
 * Who PostgreSQL runs as, and what that user can reach. PostgreSQL refuses to run as root, so when
 * this process is root, initdb and postgres run as the system user "postgres" (created if missing,
 * the only change this module makes to the machine). That user must be able to enter every folder
 * on the way to the binaries and to the data folder: a project cloned under /root (mode 0700) or
 * into `mktemp -d` (0700) is out of its reach.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, Option } from "effect"
import * as ChildProcess from "./childProcess.ts"
import { EmbeddedPostgresError } from "./EmbeddedPostgresError.ts"

export const USER = "postgres"

export const isRoot = (): boolean => process.getuid?.() === 0

const id = (flag: "-u" | "-g", name: string): Effect.Effect<number, EmbeddedPostgresError> =>
  ChildProcess.output({ file: "id", args: [flag, name] }).pipe(
    Effect.flatMap((text) => {
      const n = Number(text)
      return Number.isSafeInteger(n) && n >= 0
        ? Effect.succeed(n)
        : Effect.fail(new EmbeddedPostgresError({ reason: `\`id ${flag} ${name}\` printed ${JSON.stringify(text)}` }))
    })
  )

const lookup = (name: string): Effect.Effect<ChildProcess.RunAs, EmbeddedPostgresError> =>
  Effect.all([id("-u", name), id("-g", name)]).pipe(Effect.map(([uid, gid]) => ({ user: name, uid, gid })))

/** A system account with no home and no password; its group first when that is missing too. */
const create = (name: string): Effect.Effect<void, EmbeddedPostgresError> =>
  Effect.gen(function* () {
    const groupExists = yield* ChildProcess.output({ file: "getent", args: ["group", name] }).pipe(
      Effect.as(true),
      Effect.orElseSucceed(() => false)
    )
    if (!groupExists) yield* ChildProcess.output({ file: "groupadd", args: ["--system", name] })
    yield* ChildProcess.output({
      file: "useradd",
      args: ["--system", "--gid", name, "--no-create-home", "--comment", "PostgreSQL (embedded)", name]
    })
  }).pipe(
    Effect.mapError(
      (error) =>
        new EmbeddedPostgresError({
          reason: `running as root, PostgreSQL needs a system user "${name}", which does not exist and could not be created (${error.reason}); create it (e.g. \`useradd --system ${name}\`), run the server as a non-root user, or set DATABASE_URL`,
          cause: error
        })
    )
  )

/**
 * The user to run PostgreSQL as: none (ourselves) unless this process is root, else the system user
 * "postgres", created when missing.
 */
export const runAs: Effect.Effect<Option.Option<ChildProcess.RunAs>, EmbeddedPostgresError> = Effect.suspend(() => {
  if (!isRoot()) return Effect.succeedNone
  return lookup(USER).pipe(
    Effect.catch(() =>
      create(USER).pipe(
        Effect.andThen(lookup(USER)),
        Effect.tap((user) =>
          Effect.logInfo(`created the system user "${user.user}" (uid ${user.uid}) to run PostgreSQL`)
        )
      )
    ),
    Effect.map(Option.some)
  )
})

/** A folder that keeps `user` out: it lacks the execute ("enter") permission that applies to them. */
export interface Blocking {
  readonly folder: string
  readonly mode: number
  readonly uid: number
  readonly gid: number
}

export const describeBlocking = (blocking: Blocking): string =>
  `${blocking.folder} (mode ${(blocking.mode & 0o7777).toString(8).padStart(4, "0")}, owner uid ${blocking.uid}, group gid ${blocking.gid})`

/**
 * Whether `user` has the execute permission of a file, or of a folder (enter it), by its mode bits:
 * the owner's bits for its owner, the group's for its group, the others' for everyone else.
 * Spawned with {uid, gid}, a process has no supplementary groups (libuv drops them), so uid and gid
 * are its whole identity. ACLs are not read.
 */
export const hasExecute = (stats: { mode: number; uid: number; gid: number }, user: ChildProcess.RunAs): boolean =>
  user.uid === 0 ||
  (stats.uid === user.uid
    ? (stats.mode & 0o100) !== 0
    : stats.gid === user.gid
      ? (stats.mode & 0o010) !== 0
      : (stats.mode & 0o001) !== 0)

/** `/`, `/a`, `/a/b` for `/a/b`. */
const chain = (absolute: string): ReadonlyArray<string> => {
  const { root } = path.parse(absolute)
  const parts = absolute
    .slice(root.length)
    .split(path.sep)
    .filter((part) => part.length > 0)
  return [root, ...parts.map((_, i) => path.join(root, ...parts.slice(0, i + 1)))]
}

const statOrUndefined = (file: string) => fs.stat(file).catch(() => undefined)

/**
 * The first existing folder on the way to `target` (itself included) that `user` cannot enter, by
 * path as written and by real path (a symbolic link leads through other folders). Folders that do
 * not exist yet are not checked: whoever creates them chooses their modes.
 */
export const firstBlocking = (target: string, user: ChildProcess.RunAs): Effect.Effect<Option.Option<Blocking>> =>
  Effect.promise(async () => {
    const absolute = path.resolve(target)
    const check = async (folders: ReadonlyArray<string>): Promise<Blocking | undefined> => {
      for (const folder of folders) {
        const stats = await statOrUndefined(folder)
        if (stats === undefined) return undefined
        if (stats.isDirectory() && !hasExecute(stats, user)) {
          return { folder, mode: stats.mode, uid: stats.uid, gid: stats.gid }
        }
      }
      return undefined
    }
    const written = await check(chain(absolute))
    if (written !== undefined) return Option.some(written)
    // The deepest existing folder, resolved: its real chain may differ from the written one.
    let existing = absolute
    while ((await statOrUndefined(existing)) === undefined && path.dirname(existing) !== existing) {
      existing = path.dirname(existing)
    }
    const real = await fs.realpath(existing).catch(() => existing)
    return real === existing ? Option.none() : Option.fromUndefinedOr(await check(chain(real)))
  })
