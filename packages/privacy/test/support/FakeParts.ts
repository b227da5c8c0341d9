/**
 * Fake domain parts of PersonalData for the privacy service tests: each records what it erased,
 * gives one section of its own and a share of `account.json`, and can be told to fail its next
 * erasures or exports (a store that is down), as a real part's store would.
 */
import type { Snowflake } from "@veche/platform"
import { PersonalData } from "@veche/users"
import { Effect, Layer, Ref } from "effect"

export interface Recorder {
  /** `<part>:<user>` for every erasure that ran to the end, in order. */
  readonly erased: Ref.Ref<ReadonlyArray<string>>
  /** How many of the next calls of a part fail, by part name. */
  readonly failing: Ref.Ref<Readonly<Record<string, number>>>
}

export const makeRecorder: Effect.Effect<Recorder> = Effect.map(
  Effect.all([Ref.make<ReadonlyArray<string>>([]), Ref.make<Readonly<Record<string, number>>>({})]),
  ([erased, failing]) => ({ erased, failing })
)

/** Fails (a defect, as an infrastructure failure is) when the part is told to fail its next call. */
const maybeDown = (recorder: Recorder, name: string) =>
  Effect.flatMap(
    Ref.modify(recorder.failing, (all): [boolean, Readonly<Record<string, number>>] => {
      const left = all[name] ?? 0
      return left > 0 ? [true, { ...all, [name]: left - 1 }] : [false, all]
    }),
    (down) => (down ? Effect.die(`the ${name} store is down`) : Effect.void)
  )

export const part = (
  recorder: Recorder,
  name: string,
  level: number
): Layer.Layer<never, never, PersonalData.PersonalData> =>
  PersonalData.register(
    Effect.succeed<PersonalData.Part>({
      name,
      level,
      export: (userId: Snowflake.Snowflake) =>
        Effect.as(maybeDown(recorder, name), [
          { file: "account.json", content: { [`${name}_of`]: userId } },
          { file: `${name}.json`, about: `what ${name} keeps`, content: [name] }
        ]),
      erase: (userId: Snowflake.Snowflake) =>
        Effect.andThen(
          maybeDown(recorder, name),
          Ref.update(recorder.erased, (all) => [...all, `${name}:${userId}`])
        )
    })
  )

/** Three parts at the levels of users, auth and guilds, registered highest first (order must not matter). */
export const threeParts = (recorder: Recorder): Layer.Layer<never, never, PersonalData.PersonalData> =>
  Layer.mergeAll(
    part(recorder, "guilds", PersonalData.GUILDS),
    part(recorder, "auth", PersonalData.AUTH),
    part(recorder, "users", PersonalData.USERS)
  )
