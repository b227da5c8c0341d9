/**
 * Snowflake ids as the mirrored platform makes them: 64 bits = milliseconds since 2015-01-01T00:00:00Z
 * (42 bits) | worker id (10 bits) | per-millisecond sequence (12 bits). Bot libraries read creation
 * dates out of ids, so the epoch and layout must match theirs. Ids travel as JSON strings.
 */
import type {} from "@veche/errors" // the `formCode` annotation on Schema filters
import { Clock, Config, Context, Effect, Layer, Schema } from "effect"

/** 2015-01-01T00:00:00.000Z, the mirrored platform's epoch. */
export const EPOCH_MS = 1_420_070_400_000
export const MAX_WORKER_ID = 1023
const SEQUENCE_BITS = 12n
const WORKER_BITS = 10n
const MAX_SEQUENCE = (1 << Number(SEQUENCE_BITS)) - 1
/**
 * The largest id: 2^63−1. Ids are stored in PostgreSQL `bigint` (signed), which refuses anything
 * larger, so 2^63 … 2^64−1 would decode here and fail the query as a 500. Minted ids stay far below
 * (the timestamp's 42 bits reach 2^63 in 2154).
 */
export const MAX_ID = (1n << 63n) - 1n

const isIdString = (s: string): boolean => /^\d{1,20}$/.test(s) && BigInt(s) <= MAX_ID

/**
 * A decimal id string that fits in a signed 64-bit integer. Wrong input answers the mirrored
 * platform's `NUMBER_TYPE_COERCE` form error.
 */
export const Snowflake = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter(isIdString, {
      message: "Value is not snowflake.",
      formCode: "NUMBER_TYPE_COERCE"
    })
  ),
  Schema.brand("Snowflake")
)
export type Snowflake = typeof Snowflake.Type

/** The parts of an id, for logs and for reading creation times. */
export interface SnowflakeParts {
  readonly timestampMs: number
  readonly workerId: number
  readonly sequence: number
}

export const compose = (parts: SnowflakeParts): Snowflake =>
  Snowflake.make(
    String(
      (BigInt(parts.timestampMs - EPOCH_MS) << (WORKER_BITS + SEQUENCE_BITS)) |
        (BigInt(parts.workerId) << SEQUENCE_BITS) |
        BigInt(parts.sequence)
    )
  )

export const decompose = (id: Snowflake): SnowflakeParts => {
  const n = BigInt(id)
  return {
    timestampMs: Number(n >> (WORKER_BITS + SEQUENCE_BITS)) + EPOCH_MS,
    workerId: Number((n >> SEQUENCE_BITS) & BigInt(MAX_WORKER_ID)),
    sequence: Number(n & BigInt(MAX_SEQUENCE))
  }
}

/** When the object behind an id was created. */
export const createdAt = (id: Snowflake): Date => new Date(decompose(id).timestampMs)

/** Mints unique, time-ordered ids for one node. Nodes must have distinct worker ids. */
export class SnowflakeGenerator extends Context.Service<
  SnowflakeGenerator,
  { readonly workerId: number; readonly next: Effect.Effect<Snowflake> }
>()("@veche/platform/SnowflakeGenerator") {
  /** A generator for a fixed worker id (0–1023). */
  static readonly make = (workerId: number): Effect.Effect<SnowflakeGenerator["Service"]> =>
    Effect.sync(() => {
      // Monotonic even if the wall clock steps back: ids never repeat and never go backwards.
      // When 4096 ids are taken in one millisecond we borrow the next millisecond instead of
      // sleeping, so generation never blocks (and never hangs under a test clock).
      // A clock before the epoch (a test clock at 0) would give negative ids: count from the epoch.
      let lastMs = EPOCH_MS
      let sequence = -1
      const next = Effect.map(Clock.currentTimeMillis, (now) => {
        if (now > lastMs) {
          lastMs = now
          sequence = 0
        } else if (sequence < MAX_SEQUENCE) {
          sequence += 1
        } else {
          lastMs += 1
          sequence = 0
        }
        return compose({ timestampMs: lastMs, workerId, sequence })
      })
      return SnowflakeGenerator.of({ workerId, next })
    })

  static readonly layer = (workerId: number): Layer.Layer<SnowflakeGenerator> =>
    Layer.effect(SnowflakeGenerator, SnowflakeGenerator.make(workerId))

  /** Worker id from `SERVICE_WORKER_ID` (default 0): each server node behind one database needs its own. */
  static readonly layerConfig: Layer.Layer<SnowflakeGenerator, Config.ConfigError> = Layer.effect(
    SnowflakeGenerator,
    Effect.flatMap(
      Config.schema(
        Schema.NumberFromString.pipe(
          Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: MAX_WORKER_ID }))
        ),
        "SERVICE_WORKER_ID"
      ).pipe(Config.withDefault(0)),
      SnowflakeGenerator.make
    )
  )
}
