-- record_events (record-events.sql) with the resource each event is about and that resource's version after the
-- change (issue 47): a resource's history (GET /employees/{id}/history) and the fields changed since a version
-- (If-Match, Base-Version) are read by them on events_resource_idx, never by reading the organisation's feed.
-- `resource_ids`: null for an event about no versioned or listed resource; `resource_versions`: 0 when the
-- resource has no version.
CREATE FUNCTION record_events_v2(organisation uuid, ids uuid[], names text[], occurred_ats timestamptz[],
                                 bodies bytea[], recorded_at timestamptz, traceparents varchar[],
                                 employee_ids uuid[], resource_ids uuid[], resource_versions integer[])
  RETURNS integer
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  written integer;
BEGIN
  INSERT INTO events (id, organisation_id, event, occurred_at, body, created_at, traceparent, employee_id,
                      resource_id, resource_version)
  SELECT v.id, organisation, v.event, v.occurred_at, v.body, recorded_at, v.traceparent, v.employee_id,
         v.resource_id, v.resource_version
    FROM unnest(ids, names, occurred_ats, bodies, traceparents, employee_ids, resource_ids, resource_versions)
         AS v (id, event, occurred_at, body, traceparent, employee_id, resource_id, resource_version);
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END
$$;
