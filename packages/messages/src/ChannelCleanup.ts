/**
 * A deleted channel's messages go with it. The guilds domain deletes channels (one, or every
 * channel of a dissolved guild) and asks what other domains keep in them to go too; the kit
 * registers this service there (guilds' ChannelContents). Removal runs in bounded batches, so a
 * long history never holds one long transaction; until it is done the messages are unreachable
 * anyway (every route checks the channel first).
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer } from "effect"
import { MessagesRepo } from "./MessagesRepo.ts"

/** Messages deleted per statement. */
export const BATCH = 5000

export class ChannelCleanup extends Context.Service<
  ChannelCleanup,
  {
    /** Deletes every message (and slow-mode mark) of a channel that no longer exists; how many messages went. */
    readonly removeChannel: (channelId: Snowflake.Snowflake) => Effect.Effect<number>
  }
>()("@veche/messages/ChannelCleanup") {
  static readonly layer: Layer.Layer<ChannelCleanup, never, MessagesRepo> = Layer.effect(
    ChannelCleanup,
    Effect.map(Effect.service(MessagesRepo), (repo) =>
      ChannelCleanup.of({
        removeChannel: (channelId) =>
          Effect.gen(function* () {
            let total = 0
            for (;;) {
              const removed = yield* repo.removeByChannel(channelId, BATCH)
              total += removed
              if (removed === 0) return total
            }
          })
      })
    )
  )
}
