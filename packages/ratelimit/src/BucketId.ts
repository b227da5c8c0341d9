/**
 * The opaque `X-RateLimit-Bucket` value: the same for every route sharing a bucket, stable across
 * nodes and restarts, and telling nothing about the bucket's name. FNV-1a (64-bit) is enough: the
 * value only has to tell buckets apart, it guards nothing.
 */
const cache = new Map<string, string>()

const fnv1a64 = (text: string): string => {
  let hash = 0xcbf29ce484222325n
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i))
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn
  }
  return hash.toString(16).padStart(16, "0")
}

export const of = (bucketName: string): string => {
  let id = cache.get(bucketName)
  if (id === undefined) {
    id = fnv1a64(`veche-bucket:${bucketName}`)
    cache.set(bucketName, id)
  }
  return id
}
