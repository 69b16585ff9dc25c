-- The fan-out of recorded events to webhook deliveries (webhooks/ registers it with events/: it runs in the
-- statement that records the events, in the change's transaction). A function because PL/pgSQL keeps its plan for
-- the session, where the same join written into that statement was planned anew at every write (unnamed
-- statements, as PgBouncer in transaction mode needs; docs/adr/0001): half the statement's cost. The rows are those
-- the join writes: one pending delivery per event, in the order given, and per endpoint of the organisation
-- subscribed to it, in (created_at, id) order, whose row it key-share locks (a concurrent DELETE of the endpoint
-- waits for the change). Each delivery id is a UUID v7 of its event's moment. VOLATILE: it sees the events its
-- calling statement has just written, which its deliveries' foreign key needs. Answers how many it wrote.
CREATE OR REPLACE FUNCTION webhook_fan_out(organisation uuid, event_ids uuid[], event_names text[],
                                           recorded_at timestamptz)
  RETURNS integer
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  fanned_out integer;
BEGIN
  INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, created_at)
  SELECT uuid_v7_sharing_time(recorded.id), organisation, endpoint.id, recorded.id, recorded.event, recorded_at
    FROM unnest(event_ids, event_names) WITH ORDINALITY AS recorded (id, event, position)
    JOIN (SELECT id, events, created_at FROM webhook_endpoints
           WHERE organisation_id = organisation AND events && event_names
           ORDER BY created_at, id
             FOR KEY SHARE) endpoint ON recorded.event = ANY (endpoint.events)
   ORDER BY recorded.position, endpoint.created_at, endpoint.id;
  GET DIAGNOSTICS fanned_out = ROW_COUNT;
  RETURN fanned_out;
END
$$;
