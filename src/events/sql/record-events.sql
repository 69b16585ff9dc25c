-- The insert of a change's events (EventsRepository's recording statement, sent with the change's COMMIT). A
-- function because PL/pgSQL keeps its plan for the session, where the same INSERT … SELECT FROM unnest was parsed
-- and planned at every write (unnamed statements, as PgBouncer in transaction mode needs; docs/adr/0001). The
-- arrays are the events' columns, one element per event, in order; answers how many it wrote. The statement that
-- calls it runs the registered fan-out (webhooks/: webhook_fan_out) after it, over its answer. `employee_ids`: the
-- employee each event names, or null (what erasure and the personal-data export find events by).
CREATE OR REPLACE FUNCTION record_events(organisation uuid, ids uuid[], names text[], occurred_ats timestamptz[],
                                         bodies bytea[], recorded_at timestamptz, traceparents varchar[],
                                         employee_ids uuid[])
  RETURNS integer
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  written integer;
BEGIN
  INSERT INTO events (id, organisation_id, event, occurred_at, body, created_at, traceparent, employee_id)
  SELECT v.id, organisation, v.event, v.occurred_at, v.body, recorded_at, v.traceparent, v.employee_id
    FROM unnest(ids, names, occurred_ats, bodies, traceparents, employee_ids)
         AS v (id, event, occurred_at, body, traceparent, employee_id);
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END
$$;
