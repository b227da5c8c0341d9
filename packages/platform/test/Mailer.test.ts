import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DevOutbox from "../src/DevOutbox.ts"
import * as Mailer from "../src/Mailer.ts"

const letter: Mailer.Letter = {
  to: "alice@example.org",
  subject: "Confirm your e-mail",
  text: "Open https://veche.test/verify#token=tok_abc to confirm.",
  html: '<p>Open <a href="https://veche.test/verify#token=tok_abc">this link</a> to confirm.</p>',
  kind: "email_verify",
  link: "https://veche.test/verify#token=tok_abc",
  token: "tok_abc"
}

describe("Mailer.layerConsole", () => {
  it.effect("records the letter in the dev outbox on channel email, with its link and token", () =>
    Effect.gen(function* () {
      yield* (yield* Mailer.Mailer).send(letter)
      const messages = yield* (yield* DevOutbox.DevOutbox).list("alice@example.org")
      expect(messages).toHaveLength(1)
      expect(messages[0]).toMatchObject({
        to: "alice@example.org",
        channel: "email",
        kind: "email_verify",
        link: letter.link,
        token: "tok_abc",
        text: letter.text
      })
      expect(messages[0]?.code).toBeUndefined()
    }).pipe(Effect.provide(Mailer.Mailer.layerConsole), Effect.provide(DevOutbox.DevOutbox.layerMemory))
  )
})
