-- The claim of an Idempotency-Key in one parameterised statement (IdempotencyKeysRepository.claim): the key's
-- advisory lock, held until the transaction ends, then the response a previous holder kept. The look-up must
-- follow the lock: each statement of a VOLATILE PL/pgSQL function takes a snapshot of its own (READ COMMITTED),
-- so the look-up sees the response the lock's previous holder committed, which one SQL statement's single
-- snapshot would not.
CREATE OR REPLACE FUNCTION claim_idempotency_key(organisation uuid, claimed_key varchar, claimed_at timestamptz)
  RETURNS TABLE (claimed boolean, fingerprint char(64), status_code integer, body text)
  LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  -- Held until the transaction ends; the lock's name is the same as before this function existed.
  IF NOT pg_try_advisory_xact_lock(hashtextextended(organisation::text || ':' || claimed_key, 0)) THEN
    RETURN QUERY SELECT false, NULL::char(64), NULL::integer, NULL::text;
    RETURN;
  END IF;
  RETURN QUERY SELECT true, kept.fingerprint, kept.status_code, kept.body
    FROM idempotency_keys AS kept
   WHERE kept.organisation_id = organisation AND kept.key = claimed_key AND kept.expires_at > claimed_at;
  IF NOT FOUND THEN
    RETURN QUERY SELECT true, NULL::char(64), NULL::integer, NULL::text;
  END IF;
END
$$;
