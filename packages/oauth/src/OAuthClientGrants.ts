/**
 * The applications domain's ClientGrants port, answered over the OAuth store alone (so the kit can
 * give it to the applications domain below the OAuth services): deleting an application revokes
 * every grant users gave it and spends its unredeemed codes.
 */
import { ClientGrants } from "@veche/applications"
import { DateTime, Effect, Layer } from "effect"
import { OAuthRepo } from "./OAuthRepo.ts"

export const layer: Layer.Layer<ClientGrants.ClientGrants, never, OAuthRepo> = Layer.effect(
  ClientGrants.ClientGrants,
  Effect.map(Effect.service(OAuthRepo), (repo) =>
    ClientGrants.ClientGrants.of({
      revokeAll: (applicationId) => Effect.flatMap(DateTime.now, (now) => repo.revokeApplication(applicationId, now))
    })
  )
)
