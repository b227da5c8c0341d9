/** Small helpers for configured base URLs, shared by the provider adapters and the link builders. */

/**
 * `url` without its trailing slashes, so a configured base URL joins a path cleanly. A loop, not
 * `replace(/\/+$/, "")`: that pattern is retried from every slash and is quadratic on a long run of
 * them (the ReDoS lint, `pnpm run check:regex`, refuses it).
 */
export const withoutTrailingSlashes = (url: string): string => {
  let end = url.length
  while (end > 0 && url.charCodeAt(end - 1) === 47 /* "/" */) end--
  return url.slice(0, end)
}
