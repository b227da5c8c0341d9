/**
 * A published guild's slug: its name in lower-case Latin letters, digits and dashes (Russian
 * transliterated), at most 40 characters and always starting with a letter, so it can never equal
 * a bare guild id. Candidates in order: the name's slug, the same with the guild's id appended, the
 * id itself (unique because ids are). The store takes the first that is free, once, for good.
 */
import type { Snowflake } from "@veche/platform"

const CYRILLIC: Readonly<Record<string, string>> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya"
}

const MAX = 40

/** Runs of anything but a-z and 0-9 become one dash; none at either end; at most `max` long. */
const dashed = (text: string, max: number): string => {
  let out = ""
  let gap = false
  for (const char of text) {
    if ((char >= "a" && char <= "z") || (char >= "0" && char <= "9")) {
      const dash = gap && out !== ""
      if (out.length + (dash ? 2 : 1) > max) break
      out += dash ? `-${char}` : char
      gap = false
    } else if (char < "\u0300" || char > "\u036f") gap = true // combining accents (after NFKD) join
  }
  return out
}

/**
 * Lower case with Russian letters in Latin ones (everything else kept). Besides slugs, the
 * PostgreSQL search compares trigrams of this form: pg_trgm skips non-ASCII letters in a database
 * whose character type is C (the embedded PostgreSQL's), and Latin trigrams work in any.
 */
export const transliterate = (text: string): string =>
  Array.from(text.toLowerCase(), (char) => CYRILLIC[char] ?? char).join("")

export const fromName = (name: string): string => {
  // Cyrillic first: NFKD would split й into и and a combining mark. Then accents off Latin letters.
  const slug = dashed(transliterate(name).normalize("NFKD"), MAX)
  return /^[a-z]/.test(slug) ? slug : dashed(`server ${slug}`, MAX)
}

export const candidates = (name: string, guildId: Snowflake.Snowflake): ReadonlyArray<string> => {
  const base = fromName(name)
  return [base, `${base.slice(0, MAX - guildId.length - 1)}-${guildId}`, guildId]
}

/** What a slug path parameter may be: anything else is simply not found. */
export const isWellFormed = (slug: string): boolean => /^[a-z0-9-]{1,64}$/.test(slug)
