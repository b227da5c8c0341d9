/**
 * The Users group: for now the caller's own user. The mirrored platform's user object, minimal: the
 * profile work adds avatar/banner hashes, bio, masked phone, e-mail, settings and guild order.
 */
import { UnknownUser } from "@veche/errors"
import { Snowflake } from "@veche/platform"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"

export const CurrentUser = Schema.Struct({
  id: Snowflake.Snowflake,
  username: Schema.String,
  /** Always "0": the platform retired discriminators; libraries still read the field. */
  discriminator: Schema.Literal("0"),
  global_name: Schema.NullOr(Schema.String),
  avatar: Schema.NullOr(Schema.String),
  bot: Schema.Boolean
})

export class UsersApi extends HttpApiGroup.make("users")
  .add(HttpApiEndpoint.get("me", "/users/@me", { success: CurrentUser, error: UnknownUser }).middleware(Authorization))
  .annotate(OpenApi.Description, "Accounts as others and their owners see them.") {}
