import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 20: the fan-out of recorded events to webhook deliveries as a function, called by the statement that
 * records the events. Its plan is PL/pgSQL's, kept for the session, where the same join written into that
 * statement was planned anew at every write (unnamed statements, as PgBouncer in transaction mode needs): half
 * the statement's cost. The rows are those the join wrote: one pending delivery per event, in the order given,
 * and per endpoint of the organisation subscribed to it, in (created_at, id) order, whose row it key-share locks
 * (a concurrent DELETE of the endpoint waits for the change). Each delivery id is a UUID v7 of its event's
 * moment: its event id's first 8 bytes with a random tail. VOLATILE: it sees the events its calling statement
 * has just written, which its deliveries' foreign key needs.
 */
export class WebhookFanOut1763764000000 implements MigrationInterface {
  name = 'WebhookFanOut1763764000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION webhook_fan_out(organisation uuid, event_ids uuid[], event_names text[], recorded_at timestamptz)
        RETURNS integer
        LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        fanned_out integer;
      BEGIN
        INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, created_at)
        SELECT encode(overlay(uuid_send(gen_random_uuid()) PLACING substring(uuid_send(recorded.id) FROM 1 FOR 8)
                              FROM 1 FOR 8), 'hex')::uuid,
               organisation, endpoint.id, recorded.id, recorded.event, recorded_at
          FROM unnest(event_ids, event_names) WITH ORDINALITY AS recorded (id, event, position)
          JOIN (SELECT id, events, created_at FROM webhook_endpoints
                 WHERE organisation_id = organisation AND events && event_names
                 ORDER BY created_at, id
                   FOR KEY SHARE) endpoint ON recorded.event = ANY (endpoint.events)
         ORDER BY recorded.position, endpoint.created_at, endpoint.id;
        GET DIAGNOSTICS fanned_out = ROW_COUNT;
        RETURN fanned_out;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION webhook_fan_out(uuid, uuid[], text[], timestamptz)`);
  }
}
