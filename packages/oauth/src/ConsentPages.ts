/**
 * Where the browser goes after a consent that has no redirect URI of its own (scope `bot` alone):
 * the web front end's `/oauth2/authorized` page ("you may close this tab"). The kit answers it from
 * the accounts domain's WebLinks (`SERVICE_WEB_URL`), so it follows the same base as the letters.
 */
import { Context, Layer } from "effect"

export class ConsentPages extends Context.Service<ConsentPages, { readonly authorized: () => string }>()(
  "@veche/oauth/ConsentPages"
) {
  static readonly layer = (authorized: () => string): Layer.Layer<ConsentPages> =>
    Layer.succeed(ConsentPages, ConsentPages.of({ authorized }))
}
