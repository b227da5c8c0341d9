/** @veche/zip: ZIP archives (fflate) behind `@veche/privacy`'s ZipWriter. */
export * as FflateZipWriter from "./FflateZipWriter.ts"
