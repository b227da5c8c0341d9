/**
 * A bot's token reset (its `bot_token_digest` replaced) and its application's deletion notify
 * channel `veche_principal` with the bot's id (an application's id is its bot's user id), as
 * migration 0030's triggers do for a user's credentials. The gateway hears it on every node
 * (PgCredentialChanges) and closes the bot's open sessions that rest on the old token at once,
 * instead of at its next periodic check. A new application (an insert) notifies nothing: nothing
 * can rest on a token not yet minted.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    CREATE FUNCTION veche_principal_applications() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('veche_principal', OLD.id::text);
      RETURN NULL;
    END $$`)
  yield* sql.unsafe(`CREATE TRIGGER veche_principal_applications
    AFTER UPDATE OF bot_token_digest OR DELETE ON applications
    FOR EACH ROW EXECUTE FUNCTION veche_principal_applications()`)
  yield* sql.unsafe(`CREATE TRIGGER veche_principal_applications_truncated AFTER TRUNCATE ON applications
    FOR EACH STATEMENT EXECUTE FUNCTION veche_principal_truncated()`)
})
