-- Every change of a registered client is announced on the channel keycard_client_changed, with the
-- client's id (a truncation: an empty payload, meaning every client), once its transaction commits:
-- each instance's client cache forgets what it held (server/src/oidc/client-changes.ts), whichever
-- process wrote the change (the admin CLI, another instance, a hand-run statement).
CREATE FUNCTION keycard_client_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('keycard_client_changed', '');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('keycard_client_changed', OLD.client_id);
  ELSE
    PERFORM pg_notify('keycard_client_changed', NEW.client_id);
    IF TG_OP = 'UPDATE' AND OLD.client_id IS DISTINCT FROM NEW.client_id THEN
      PERFORM pg_notify('keycard_client_changed', OLD.client_id);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER oidc_client_changed AFTER INSERT OR UPDATE OR DELETE ON oidc_client
  FOR EACH ROW EXECUTE FUNCTION keycard_client_changed();
--> statement-breakpoint
CREATE TRIGGER oidc_client_truncated AFTER TRUNCATE ON oidc_client
  FOR EACH STATEMENT EXECUTE FUNCTION keycard_client_changed();
