/**
 * Text as the catalogue compares it: lower case, ё as е, split into words of letters and digits
 * (any script). Used by the disallowed-word check and the in-memory search.
 */
export const normalize = (text: string): string => text.toLowerCase().replaceAll("ё", "е")

export const words = (text: string): ReadonlyArray<string> => normalize(text).match(/[\p{L}\p{N}]+/gu) ?? []

/** The disallowed words (each may be several words: matched as a run) found in the text. */
export const found = (text: string, disallowed: ReadonlyArray<string>): ReadonlyArray<string> => {
  const padded = ` ${words(text).join(" ")} `
  return disallowed.filter((entry) => {
    const run = words(entry).join(" ")
    return run !== "" && padded.includes(` ${run} `)
  })
}
