-- The trigger function that counts the changes to an organisation's catalogue names (issue 46): a skill's name or
-- name key, or any alias, added, changed or removed. It runs as a deferred constraint trigger, so the version row is
-- locked only while the writing transaction commits, not while it works (concurrent writers of one organisation are
-- not serialised), and once per organisation and transaction (a transaction-local setting remembers the last
-- organisation counted). An organisation deleted in the same transaction is not counted: nothing of it is left.
CREATE FUNCTION catalogue_changed_v1() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  organisation uuid := CASE TG_OP WHEN 'DELETE' THEN OLD.organisation_id ELSE NEW.organisation_id END;
BEGIN
  IF current_setting('skills.catalogue_counted', true) = organisation::text THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('skills.catalogue_counted', organisation::text, true);
  INSERT INTO catalogue_versions AS v (organisation_id, version)
  SELECT organisation, 1 WHERE EXISTS (SELECT FROM organisations WHERE id = organisation)
  ON CONFLICT (organisation_id) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END
$$;
