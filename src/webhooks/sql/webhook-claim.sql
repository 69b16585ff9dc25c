-- webhook_claim(wanted, held_per_endpoint, stale_before, claim_time, sent, claimer) claims up to `wanted`
-- deliveries for the dispatcher `claimer` and answers them with what sending needs. One dispatcher at a time owns
-- an endpoint: it may take that endpoint's deliveries only while no other claimer holds one in flight (claimed,
-- not finished, not claimed before `stale_before`: a claim that old belongs to a dispatcher that died mid-send and
-- is taken again; a test event, sent at once by the API, is claimed by no dispatcher and counts for none), and it holds at most `held_per_endpoint` in flight, less its deliveries in `sent` (whose sends
-- have ended, their outcomes being written). The owner sends at most WEBHOOK_ENDPOINT_CONCURRENCY of them at a
-- time and keeps the rest queued (webhook-dispatcher.ts): the next send starts as one ends, without waiting for a
-- claim, and across every dispatcher no more go to one endpoint at once. In two statements:
-- 1. the endpoints to serve: those with a delivery to claim that this claimer may take, the one whose first such
--    delivery waited longest first, at most `wanted`; each is locked (a transaction-level advisory lock) for this
--    claim, and one another claim holds is skipped: it is being served.
-- 2. VOLATILE, so this statement's snapshot is taken after those locks: it sees every claim of these endpoints
--    another dispatcher committed, and none can commit meanwhile, so ownership and the hold hold however many
--    dispatchers claim at once. It takes an equal share of `wanted` from each endpoint, at most its free places,
--    first the oldest of each endpoint, then the second of each, and so on, skipping rows locked by others (a
--    settle), and marks them claimed by `claimer`.
-- A function, so its plans are kept for the session (the API's statements are planned at every call). Its
-- commit does not wait for the WAL flush: a claim a database crash loses leaves the delivery to be sent again,
-- as the claim of a dispatcher that crashes does.
CREATE OR REPLACE FUNCTION webhook_claim(wanted integer, held_per_endpoint integer, stale_before timestamptz,
                                         claim_time timestamptz, sent uuid[], claimer uuid)
  RETURNS TABLE (id uuid, "endpointId" uuid, "eventId" uuid, event varchar, body bytea, traceparent varchar,
                 url varchar, "secretSealed" bytea, "previousSecretSealed" bytea,
                 "previousSecretExpiresAt" timestamptz)
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  served uuid[];
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  WITH RECURSIVE queued (endpoint_id) AS (
      (SELECT d.endpoint_id FROM webhook_deliveries d WHERE d.outcome IS NULL ORDER BY d.endpoint_id LIMIT 1)
    UNION ALL
      SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
               WHERE d.outcome IS NULL AND d.endpoint_id > queued.endpoint_id
               ORDER BY d.endpoint_id LIMIT 1)
        FROM queued
       WHERE queued.endpoint_id IS NOT NULL
  )
  SELECT array_agg(turn.endpoint_id ORDER BY turn.created_at, turn.id) INTO served
    FROM (SELECT queued.endpoint_id, head.created_at, head.id
            FROM queued
            CROSS JOIN LATERAL (
              SELECT d.created_at, d.id FROM webhook_deliveries d
               WHERE d.endpoint_id = queued.endpoint_id AND d.outcome IS NULL
                 AND (d.claimed_at IS NULL OR d.claimed_at < stale_before)
               ORDER BY d.created_at, d.id
               LIMIT 1) head
            CROSS JOIN LATERAL (
              SELECT count(*) FILTER (WHERE d.claimed_by = claimer AND d.id <> ALL (sent)) AS held,
                     count(*) FILTER (WHERE d.claimed_by <> claimer) AS others
                FROM webhook_deliveries d
               WHERE d.endpoint_id = queued.endpoint_id AND d.outcome IS NULL
                 AND d.claimed_at >= stale_before) in_flight
           WHERE in_flight.others = 0 AND in_flight.held < held_per_endpoint
           ORDER BY head.created_at, head.id
           LIMIT wanted) turn
   WHERE pg_try_advisory_xact_lock(1763764500, hashtext(turn.endpoint_id::text));
  IF served IS NULL THEN
    RETURN;
  END IF;

  RETURN QUERY
  WITH turn AS (
    SELECT served_endpoint.endpoint_id, served_endpoint.position,
           CASE WHEN in_flight.others > 0 THEN 0
                ELSE least(held_per_endpoint - in_flight.held,
                           (wanted + cardinality(served) - 1) / cardinality(served))
           END AS share
      FROM unnest(served) WITH ORDINALITY AS served_endpoint (endpoint_id, position)
      CROSS JOIN LATERAL (
        SELECT (count(*) FILTER (WHERE d.claimed_by = claimer AND d.id <> ALL (sent)))::integer AS held,
               (count(*) FILTER (WHERE d.claimed_by <> claimer))::integer AS others
          FROM webhook_deliveries d
         WHERE d.endpoint_id = served_endpoint.endpoint_id AND d.outcome IS NULL
           AND d.claimed_at >= stale_before) in_flight
  ), due AS (
    SELECT taken.id
      FROM (SELECT candidate.id, turn.position,
                   row_number() OVER (PARTITION BY turn.position ORDER BY candidate.created_at, candidate.id) AS round
              FROM turn
              CROSS JOIN LATERAL (
                SELECT d.id, d.created_at FROM webhook_deliveries d
                 WHERE d.endpoint_id = turn.endpoint_id AND d.outcome IS NULL
                   AND (d.claimed_at IS NULL OR d.claimed_at < stale_before)
                 ORDER BY d.created_at, d.id
                 LIMIT greatest(turn.share, 0)
                   FOR UPDATE SKIP LOCKED) AS candidate) AS taken
     ORDER BY taken.round, taken.position
     LIMIT wanted
  )
  UPDATE webhook_deliveries AS delivery
     SET claimed_at = claim_time, claimed_by = claimer
    FROM due, webhook_endpoints AS endpoint, events AS recorded
   WHERE delivery.id = due.id AND endpoint.id = delivery.endpoint_id AND recorded.id = delivery.event_id
  RETURNING delivery.id, delivery.endpoint_id, delivery.event_id, delivery.event, recorded.body,
            recorded.traceparent, endpoint.url, endpoint.secret_sealed, endpoint.previous_secret_sealed,
            endpoint.previous_secret_expires_at;
END
$$;
