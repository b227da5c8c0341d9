/**
 * Reading the header of an argon2 PHC string (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`).
 *
 * The hasher needs the parameters a stored hash was made with to decide whether it should be
 * rehashed on login. We parse the header ourselves instead of calling `@node-rs/argon2`'s
 * `parseOptions`, because that one answers with its ambient const enums (`Algorithm`, `Version`),
 * which `verbatimModuleSyntax` cannot reference (TS2748, see shared/docs/traps.md).
 */
import { Option } from "effect"

/** The cost parameters of argon2, as `@node-rs/argon2` names them. */
export interface Argon2Params {
  /** Memory in KiB (`m=`). */
  readonly memoryCost: number
  /** Passes over memory (`t=`). */
  readonly timeCost: number
  /** Lanes (`p=`). */
  readonly parallelism: number
}

/** What the header of a PHC string says. */
export interface PhcHeader extends Argon2Params {
  readonly algorithm: "argon2id" | "argon2i" | "argon2d"
  /** 19 (0x13) for current hashes; 16 (0x10) when the `v=` field is absent, as the PHC format says. */
  readonly version: number
}

/** The argon2 version every hash we make carries (0x13). */
export const CURRENT_VERSION = 19

// Salt and hash are unpadded standard base64. Extra parameters (`keyid`, `data`) are not produced
// by the library and would change what `verify` computes, so a string carrying them is refused.
const PHC =
  /^\$(argon2id|argon2i|argon2d)\$(?:v=(\d{1,3})\$)?m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,3})\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/

/** The header of an argon2 PHC string, or none when the string is not one. */
export const parse = (phc: string): Option.Option<PhcHeader> => {
  const match = PHC.exec(phc)
  if (match === null) return Option.none()
  const [, algorithm, version, m, t, p] = match
  if (algorithm !== "argon2id" && algorithm !== "argon2i" && algorithm !== "argon2d") return Option.none()
  return Option.some({
    algorithm,
    version: version === undefined ? 16 : Number(version),
    memoryCost: Number(m),
    timeCost: Number(t),
    parallelism: Number(p)
  })
}

/** Whether a hash with this header was made with other settings than `current` (argon2id, v=19). */
export const differs = (header: PhcHeader, current: Argon2Params): boolean =>
  header.algorithm !== "argon2id" ||
  header.version !== CURRENT_VERSION ||
  header.memoryCost !== current.memoryCost ||
  header.timeCost !== current.timeCost ||
  header.parallelism !== current.parallelism
