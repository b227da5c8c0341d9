import { describe, expect, it, layer } from "@effect/vitest"
import { DateTime, Duration, Effect } from "effect"
import * as DeliveryStore from "../src/DeliveryStore.ts"
import { deliveryStoreContract } from "./contracts/DeliveryStoreContract.ts"

describe("DeliveryStore (memory)", () => {
  layer(DeliveryStore.DeliveryStore.layerMemory)((it) => deliveryStoreContract(it))

  it.effect("refuses jobs beyond its capacity, and takes them again once there is room", () =>
    Effect.gen(function* () {
      const store = yield* DeliveryStore.DeliveryStore.make({ capacity: 2 })
      const now = yield* DateTime.now
      const job = {
        _tag: "Sms",
        message: { to: "+79161234567", kind: "recover", code: "123456", text: "Veche: 123456" },
        expiresAt: DateTime.addDuration(now, Duration.minutes(10))
      } as const
      const first = yield* store.add(job, now)
      yield* store.add(job, now)
      const error = yield* store.add(job, now).pipe(Effect.flip)
      expect(error._tag).toBe("DeliveryUnavailable")
      expect(error.reason).not.toContain("123456")
      yield* store.remove(first)
      yield* store.add(job, now)
    })
  )
})
