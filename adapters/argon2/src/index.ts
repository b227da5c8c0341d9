/** @veche/argon2: argon2id password hashing (`@node-rs/argon2`) behind `@veche/auth`'s PasswordHasher. */
export * as Argon2PasswordHasher from "./Argon2PasswordHasher.ts"
