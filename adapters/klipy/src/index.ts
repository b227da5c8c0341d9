/** @veche/klipy: the GIF proxy's provider over KLIPY's API (`KlipyGifProvider`). */
export * as KlipyAnswers from "./KlipyAnswers.ts"
export * as KlipyGifProvider from "./KlipyGifProvider.ts"
