/** @veche/zip: ZIP archives (fflate) behind `@veche/auth`'s ZipWriter. */
export * as FflateZipWriter from "./FflateZipWriter.ts"
