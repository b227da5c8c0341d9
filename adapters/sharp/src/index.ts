/** @veche/sharp: image decoding and re-encoding with sharp (libvips) behind `@veche/media`'s ImageCodec. */
export * as SharpImageCodec from "./SharpImageCodec.ts"
