/**
 * A handler group built in a context of its own: the services it names and nothing else. HttpApi
 * merges the context a group was built in into the context of each of its requests, a copy per
 * request, so every service a group can see costs each of its requests; a group that sees only its
 * own keeps that copy small (`GET /version` sees five services instead of fifty).
 */
import { Context, Effect, Layer } from "effect"

type Keys = ReadonlyArray<Context.Key<unknown, unknown>>

/** The keys, if they name every service `R` asks for; otherwise a type error naming the missing. */
export type Covering<R, K extends Keys> = [Exclude<R, Context.Service.Identifier<K[number]>>] extends [never]
  ? K
  : { readonly missing: Exclude<R, Context.Service.Identifier<K[number]>> }

export const isolated = <A, E, R, const K extends Keys>(
  group: Layer.Layer<A, E, R>,
  services: K & Covering<R, K>
): Layer.Layer<A, E, R> => {
  const keys: K = services
  // `Covering` has checked at the call site that these keys are all of R.
  const only = (context: Context.Context<R>): Context.Context<R> =>
    Context.makeUnsafe(new Map(keys.map((key) => [key.key, Context.getUnsafe(context, key)])))
  return Layer.fromBuild((memoMap, scope) => Effect.updateContext(Layer.buildWithMemoMap(group, memoMap, scope), only))
}
