/**
 * A page of the web front end that the API links to: its path and the HTML file in the package's
 * assets/ folder. A page's script and style are files beside it, served from `ASSETS_PATH`.
 *
 * Adding a page: put `name.html` and `name.js` in assets/, add an entry to `all` (and the script
 * to `assets`). The routes, headers and tests pick it up from here.
 */

export interface Page {
  /** Where it answers (GET only): the path the API's links use. */
  readonly path: `/${string}`
  /** Its HTML, a file in assets/. */
  readonly file: string
}

/** `SERVICE_WEB_URL/verify-email?token=…`: the link in an e-mail confirmation letter. */
export const verifyEmail: Page = { path: "/verify-email", file: "verify-email.html" }

/** `SERVICE_WEB_URL/reset-password?token=…`: the link in a password recovery letter. */
export const resetPassword: Page = { path: "/reset-password", file: "reset-password.html" }

/**
 * `{web_url}/oauth2/authorize?client_id=…`: where the API's OAuth sends a browser; the consent
 * page signs in, shows what the application asks and sends the answer.
 */
export const oauth2Authorize: Page = { path: "/oauth2/authorize", file: "oauth2-authorize.html" }

/** `{web_url}/oauth2/authorized`: where a bot-only authorisation without redirect_uri ends. */
export const oauth2Authorized: Page = { path: "/oauth2/authorized", file: "oauth2-authorized.html" }

/**
 * `/staff`: the staff panel (statistics, the catalogue queue, users and their Plus and boost
 * grants, the audit log). It signs in with phone, password and 2FA and calls the public API only;
 * non-staff are refused by the API's 403 and told so.
 */
export const staffPanel: Page = { path: "/staff", file: "staff.html" }

export const all: ReadonlyArray<Page> = [verifyEmail, resetPassword, oauth2Authorize, oauth2Authorized, staffPanel]

/** Scripts and the style sheet of the pages; the pages load them from here (no inline script). */
export const ASSETS_PATH = "/web-assets"

/** The files under `ASSETS_PATH`, by name, with their content type; nothing else there is served. */
export const assets: Readonly<Record<string, string>> = {
  "page.css": "text/css; charset=utf-8",
  "icon.svg": "image/svg+xml",
  "api.js": "text/javascript; charset=utf-8",
  "sign-in.js": "text/javascript; charset=utf-8",
  "verify-email.js": "text/javascript; charset=utf-8",
  "reset-password.js": "text/javascript; charset=utf-8",
  "oauth2-authorize.js": "text/javascript; charset=utf-8",
  "oauth2-authorized.js": "text/javascript; charset=utf-8",
  "permissions.js": "text/javascript; charset=utf-8",
  "staff.js": "text/javascript; charset=utf-8",
  "staff-views.js": "text/javascript; charset=utf-8",
  "staff-grants.js": "text/javascript; charset=utf-8",
  "staff.css": "text/css; charset=utf-8"
}

/**
 * Files served under `ASSETS_PATH` from npm packages, as published (no build step): the panel's
 * chart library, uPlot (its ES module and its style sheet).
 */
export const vendor: Readonly<Record<string, { readonly file: string; readonly contentType: string }>> = {
  "uplot.js": { file: "uplot/dist/uPlot.esm.js", contentType: "text/javascript; charset=utf-8" },
  "uplot.css": { file: "uplot/dist/uPlot.min.css", contentType: "text/css; charset=utf-8" }
}
