/**
 * The messages that carry a verification code, as delivery jobs: the SMS text (for text gateways;
 * messenger gateways send the bare code in their own template) and the letter for e-mail codes.
 * Both expire with the code, so a message delayed past it is never sent.
 */
import type { DeliveryJob, DevOutbox } from "@veche/platform"
import { DateTime, Duration, Redacted } from "effect"

const PURPOSE_TEXT: Record<DevOutbox.MessageKind, string> = {
  register: "your code is",
  recover: "your password recovery code is",
  change_phone: "your code to change the phone number is",
  email_verify: "your code is",
  email_recover: "your password recovery code is"
}

export const sms = (
  to: string,
  kind: DevOutbox.MessageKind,
  code: Redacted.Redacted<string>,
  now: DateTime.Utc,
  ttl: Duration.Duration
): DeliveryJob.Job => ({
  _tag: "Sms",
  expiresAt: DateTime.add(now, { milliseconds: Duration.toMillis(ttl) }),
  message: {
    to,
    kind,
    code: Redacted.value(code),
    text: `Veche: ${PURPOSE_TEXT[kind]} ${Redacted.value(code)}. Do not share it with anyone.`,
    ttl
  }
})

export const letter = (
  to: string,
  code: Redacted.Redacted<string>,
  now: DateTime.Utc,
  ttl: Duration.Duration
): DeliveryJob.Job => ({
  _tag: "Mail",
  expiresAt: DateTime.add(now, { milliseconds: Duration.toMillis(ttl) }),
  letter: {
    to,
    kind: "register",
    subject: "Veche: your registration code",
    code: Redacted.value(code),
    text: `Your Veche registration code is ${Redacted.value(code)}. It is valid for ${Math.floor(
      Duration.toMinutes(ttl)
    )} minutes. If you did not ask for it, ignore this letter.`
  }
})
