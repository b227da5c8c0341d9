/**
 * The no-store middleware's tag, declared by each route whose answer no cache may keep: those that
 * hand out credentials (token pairs, backup codes, bot tokens, client secrets, OAuth codes) and
 * those that answer per caller without credentials (`GET /auth/methods`). Every answer of such a
 * route says so (`Cache-Control: no-store`, `Pragma: no-cache`); the headers are `@veche/rest`'s
 * `NoStoreMiddleware`.
 */
import { HttpApiMiddleware } from "effect/http-api"

export class NoStore extends HttpApiMiddleware.Service<NoStore>()("@veche/api/NoStore") {}
