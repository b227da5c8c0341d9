/** @veche/smtp: the `Mailer` port over SMTP (nodemailer), for hosts that send real letters. */
export * as SmtpMailer from "./SmtpMailer.ts"
