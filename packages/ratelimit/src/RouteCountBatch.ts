/**
 * The arguments of one `RouteCountScript.batchLua` call, gathered one request at a time. Under load
 * a turn's requests mostly repeat a few callers and routes (a bot's burst, one address's page
 * load): sent as they came, each repeated its keys (~40 bytes each) and bucket arguments, and Redis
 * parsed and interned every copy before the script ran. Here each distinct key is sent once, each
 * distinct counting (the same `Counting` object: a prepared count is reused from one request to the
 * next) once as a plan naming its keys by index, and the requests as runs of one plan: 26 requests
 * of one caller on one route are 2 keys and 14 arguments instead of 52 keys and 82 arguments, and
 * the script's time in Redis fell from 41 to 24 µs (`redis-benchmark`, this machine).
 */
/** One request's counting as the script needs it: its keys (global, bucket, then network when it has one) and its bucket's arguments. */
export interface Counting {
  readonly keys: ReadonlyArray<string>
  readonly bucketArgs: readonly [limit: string, refillMs: string]
}

export interface RouteCountBatch {
  /** Adds one request, counted after those added before it. */
  readonly add: (counting: Counting) => void
  /** `EVALSHA` of the batch (the SHA at index 1, filled in when sent), `fixedArgs` the global and network limits' arguments. */
  readonly command: (fixedArgs: ReadonlyArray<string>) => Array<string>
}

/** A plan's arguments: its global, bucket and network key indices (from 1; 0 for no network), its bucket's limit and refill. */
const PLAN_WIDTH = 5

export const make = (): RouteCountBatch => {
  const keys: Array<string> = []
  const keyIndex = new Map<string, number>()
  const planIndex = new Map<Counting, number>()
  // PLAN_WIDTH arguments per plan.
  const plans: Array<string> = []
  // Per run: its plan (1-based) and its length.
  const runs: Array<number> = []

  const indexOf = (key: string): number => {
    let index = keyIndex.get(key)
    if (index === undefined) {
      keys.push(key)
      index = keys.length
      keyIndex.set(key, index)
    }
    return index
  }
  const planOf = (counting: Counting): number => {
    let plan = planIndex.get(counting)
    if (plan === undefined) {
      const [global, bucket, network] = counting.keys as readonly [string, string, string?]
      plans.push(
        String(indexOf(global)),
        String(indexOf(bucket)),
        network === undefined ? "0" : String(indexOf(network)),
        counting.bucketArgs[0],
        counting.bucketArgs[1]
      )
      plan = plans.length / PLAN_WIDTH
      planIndex.set(counting, plan)
    }
    return plan
  }

  return {
    add: (counting) => {
      const plan = planOf(counting)
      const last = runs.length - 2
      if (last >= 0 && runs[last] === plan) runs[last + 1] = (runs[last + 1] as number) + 1
      else runs.push(plan, 1)
    },
    command: (fixedArgs) => {
      const command = ["EVALSHA", "", String(keys.length)]
      for (const key of keys) command.push(key)
      for (const arg of fixedArgs) command.push(arg)
      command.push(String(plans.length / PLAN_WIDTH))
      for (const arg of plans) command.push(arg)
      for (const n of runs) command.push(String(n))
      return command
    }
  }
}
