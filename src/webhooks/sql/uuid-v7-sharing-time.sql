-- A new UUID v7 of the moment of `id`, itself a UUID v7: its first 8 bytes (the time, the version) with the random
-- tail of gen_random_uuid() (whose variant bits match). Each delivery's id is one of its event's moment (the fan-out),
-- or of the moment a redelivery was asked (WebhookDeliveriesRepository.redeliverFailed). A single expression, so the
-- planner inlines it into the statement that calls it.
CREATE OR REPLACE FUNCTION uuid_v7_sharing_time(id uuid) RETURNS uuid
  LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
SELECT encode(overlay(uuid_send(gen_random_uuid()) PLACING substring(uuid_send(id) FROM 1 FOR 8) FROM 1 FOR 8), 'hex')::uuid
$$;
