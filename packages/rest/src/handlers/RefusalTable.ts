/**
 * What every domain's refusal table (`<Domain>Refusals.ts`) shares: a table maps a refusal's tag to
 * the API error it becomes, and `refuseWith(table)` applies it, passing any other error through. Its
 * type does the same, so a handler's error type is exactly the errors its endpoint declares.
 */

/** Refusal tag → the API error it becomes (an entry may read the refusal). */
export type Table = { readonly [Tag in string]: (refusal: never) => unknown }

/** The API error a refusal becomes under a table; other errors stay as they are. */
export type ApiErrorOf<E, T extends Table> = E extends { readonly _tag: infer Tag }
  ? Tag extends keyof T
    ? ReturnType<T[Tag]>
    : E
  : E

/** The error's tag, when it has one. */
export const tagOf = (error: unknown): string | undefined => {
  const tag = (error as { readonly _tag?: unknown } | null)?._tag
  return typeof tag === "string" ? tag : undefined
}

export const refuseWith =
  <T extends Table>(refusals: T) =>
  <E>(error: E): ApiErrorOf<E, T> => {
    const tag = tagOf(error)
    if (tag !== undefined && Object.hasOwn(refusals, tag)) {
      const make = refusals[tag] as (refusal: never) => unknown
      return make(error as never) as ApiErrorOf<E, T>
    }
    return error as ApiErrorOf<E, T>
  }
