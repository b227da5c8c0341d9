/**
 * The headers every page and asset carries. The pages hold a secret in their URL (the link's token),
 * so: no Referer to anyone, nothing cached, never inside a frame (clickjacking a "set password"
 * form), and a Content-Security-Policy that allows the package's own files and the API only.
 */

/** For the pages: the strict policy, nothing stored. */
export const forPage = (apiOrigin: string | undefined): Record<string, string> => {
  const api = apiOrigin === undefined ? "" : ` ${apiOrigin}`
  return {
    "content-security-policy": [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      // The API's media routes (an application's icon, the person's avatar on the consent page).
      `img-src 'self'${api}`,
      `connect-src 'self'${api}`,
      // The forms are sent by the script (fetch), never by the browser itself.
      "form-action 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'"
    ].join("; "),
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "cross-origin-opener-policy": "same-origin"
  }
}

/** For scripts and the style sheet: the same, except that a browser may keep them (they hold no secret). */
export const forAsset: Record<string, string> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "same-origin"
}
