/**
 * The in-memory store's approximation of the PostgreSQL search (full text in the simple, Russian
 * and English configurations, plus trigram similarity): every word of the query must match a word
 * of the text by prefix, by trigram similarity, or within a small edit distance (a typo or a
 * different ending). Answers a score (higher is better), or 0 for no match.
 */
import * as Words from "./Words.ts"

const trigrams = (word: string): ReadonlySet<string> => {
  const padded = `  ${word} `
  const found = new Set<string>()
  for (let i = 0; i + 3 <= padded.length; i++) found.add(padded.slice(i, i + 3))
  return found
}

/** pg_trgm's similarity: shared trigrams over all distinct trigrams of both. */
export const similarity = (a: string, b: string): number => {
  const x = trigrams(a)
  const y = trigrams(b)
  let shared = 0
  for (const gram of x) if (y.has(gram)) shared++
  return shared / (x.size + y.size - shared)
}

/** Edit distance, stopping early past `limit`. */
const distanceAtMost = (a: string, b: string, limit: number): boolean => {
  if (Math.abs(a.length - b.length) > limit) return false
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      )
      current.push(value)
      best = Math.min(best, value)
    }
    if (best > limit) return false
    previous = current
  }
  return (previous[b.length] ?? limit + 1) <= limit
}

const wordScore = (query: string, word: string): number => {
  if (word === query) return 2
  if (word.startsWith(query) || (query.length >= 5 && query.startsWith(word.slice(0, Math.max(4, word.length - 2)))))
    return 1.5
  const similar = similarity(query, word)
  if (similar >= 0.4) return similar
  if (query.length >= 4 && distanceAtMost(query, word, query.length >= 7 ? 2 : 1)) return 0.5
  return 0
}

export const score = (query: string, text: string): number => {
  const wanted = Words.words(query)
  const have = Words.words(text)
  if (wanted.length === 0) return 0
  let total = 0
  for (const q of wanted) {
    let best = 0
    for (const word of have) best = Math.max(best, wordScore(q, word))
    if (best === 0) return 0
    total += best
  }
  return total
}
