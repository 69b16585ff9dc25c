import { Client } from 'pg';
import { EVENTS_PER_ORGANISATION, ORGANISATION_NAME_PREFIX } from './bench-env';

/**
 * EVENTS_PER_ORGANISATION skill.rated events per organisation (GET /events pages through them), spread over the
 * last 20 days, for organisations that have fewer; the first organisation's are delivered to its endpoints
 * (POST …/redeliver picks among those deliveries). Events older than the service keeps (30 days) are deleted
 * first, so the service's retention never removes what a run sampled. A seed made before the events table existed
 * gains them.
 */
export async function topUpEvents(client: Client): Promise<void> {
  await client.query(
    `DELETE FROM events WHERE created_at < now() - interval '29 days'
        AND organisation_id IN (SELECT id FROM organisations WHERE name LIKE $1 || '%')`,
    [ORGANISATION_NAME_PREFIX],
  );
  const { rows: organisations } = await client.query<{ id: string; events: number }>(
    `SELECT o.id, (SELECT count(*)::int FROM events e WHERE e.organisation_id = o.id) AS events
       FROM organisations o WHERE o.name LIKE $1 || '%'`,
    [ORGANISATION_NAME_PREFIX],
  );
  const missing = organisations.filter((organisation) => organisation.events < EVENTS_PER_ORGANISATION);
  if (missing.length === 0) return;
  await client.query(
    `WITH event AS (
       INSERT INTO events (id, organisation_id, event, occurred_at, body, created_at)
       SELECT gen_random_uuid(), organisation_id, 'skill.rated', at,
              convert_to(json_build_object('event', 'skill.rated', 'timestamp', at, 'data',
                json_build_object('employeeId', gen_random_uuid(), 'rating', json_build_object('ratingId', gen_random_uuid(),
                  'score', n % 6, 'ratingType', 'MANAGER_EVALUATION', 'comment', NULL)))::text, 'UTF8'), at
         FROM unnest($1::uuid[]) organisation_id, generate_series(1, $2) n,
              LATERAL (SELECT now() - (n * interval '1 minute') * 20 * 24 * 60 / $2 AS at) moment
       RETURNING id, organisation_id, created_at
     )
     INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, created_at, claimed_at,
                                     outcome, status_code, duration_ms, attempted_at)
     SELECT gen_random_uuid(), event.organisation_id, endpoint.id, event.id, 'skill.rated', event.created_at,
            event.created_at, 'delivered', 200, 5, event.created_at
       FROM event JOIN webhook_endpoints endpoint ON endpoint.organisation_id = event.organisation_id`,
    [missing.map((organisation) => organisation.id), EVENTS_PER_ORGANISATION],
  );
}
