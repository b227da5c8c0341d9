/**
 * The users domain over the domains that answer its ports: the account details CurrentUser shows
 * come from the accounts domain (AuthAccountDetails, over its snapshots), profile images are stored
 * by media (MediaUserImages, over ProfileImages); the servers a user is in (Memberships) come from
 * the guilds domain below it in the stack.
 */
import { type AccountSnapshot, AuthAccountDetails } from "@veche/auth"
import { MediaUserImages, type ProfileImages } from "@veche/media"
import type { EventBus } from "@veche/platform"
import { type Memberships, UsersDomain } from "@veche/users"
import { Layer } from "effect"

export const layer: Layer.Layer<
  UsersDomain.Services,
  never,
  | UsersDomain.Repositories
  | AccountSnapshot.AccountSnapshots
  | ProfileImages.ProfileImages
  | Memberships.Memberships
  | EventBus.EventBus
> = UsersDomain.layer.pipe(Layer.provide(Layer.merge(AuthAccountDetails.layer, MediaUserImages.layer)))
