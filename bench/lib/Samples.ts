/**
 * Latency samples of a load run made here rather than by autocannon (the refresh chains, the argon2
 * floor), summed up the way Load.run sums up autocannon's: throughput and median / p99 latency.
 * Plain arrays: a 10 s run yields tens of thousands of samples at most, sorted once.
 */
import type { LoadResult } from "./Load.ts"

export class Samples {
  private readonly latenciesMs: Array<number> = []
  private failed = 0

  /** Times one operation from now; call the returned function when it has finished. */
  readonly start = (): ((ok: boolean) => void) => {
    const began = performance.now()
    return (ok) => {
      if (ok) this.latenciesMs.push(performance.now() - began)
      else this.failed++
    }
  }

  readonly result = (seconds: number): LoadResult => {
    const sorted = Float64Array.from(this.latenciesMs).sort()
    const at = (fraction: number) => {
      const value = sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0
      return Number(value.toFixed(2))
    }
    return {
      rps: this.latenciesMs.length / seconds,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      errors: 0,
      non2xx: this.failed
    }
  }
}
