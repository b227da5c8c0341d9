/**
 * The GIF proxy's refusals (@veche/gifs) as the API's errors, in one table like `GuildRefusals`:
 * a provider that is off, down, slow or talking nonsense is 502 `{code: 0, message}`. The reason
 * stays in the log (the domain logs it); the client learns only that the provider is unavailable.
 */
import { BadGateway } from "@veche/errors"
import * as RefusalTable from "./RefusalTable.ts"

export const PROVIDER_UNAVAILABLE = "GIF provider unavailable"

const table = {
  GifProviderUnavailable: () => new BadGateway({ message: PROVIDER_UNAVAILABLE })
} as const

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = RefusalTable.ApiErrorOf<E, typeof table>

export const refuse: <E>(error: E) => ApiErrorOf<E> = RefusalTable.refuseWith(table)
