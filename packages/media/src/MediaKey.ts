/**
 * Keys of stored objects: `/`-separated segments of letters, digits, `.`, `_` and `-`, none
 * starting with `.`. Every adapter accepts only such keys, so a key can never name a parent folder
 * (`..`), an absolute path, a hidden or temporary file, or need escaping in a URL.
 */

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/
const MAX_SEGMENTS = 8

export const isValid = (key: string): boolean => {
  const segments = key.split("/")
  return segments.length <= MAX_SEGMENTS && segments.every((segment) => SEGMENT.test(segment))
}

/** For callers whose keys are built, not received: a bad one is a bug, reported as a defect. */
export const invalidKeyDefect = (key: string): Error => new Error(`MediaStorage: invalid key ${JSON.stringify(key)}`)
