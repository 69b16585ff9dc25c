import { MigrationInterface, QueryRunner } from 'typeorm';

/** A UUID v7 for the millisecond of `at`: its time in the first 48 bits, version 7, the rest random (variant 10). */
const uuidV7At = (at: string) => `encode(
  set_byte(
    overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send((extract(epoch FROM ${at}) * 1000)::bigint) FROM 3 FOR 6) FROM 1 FOR 6),
    6, (get_byte(uuid_send(gen_random_uuid()), 6) & 15) | 112),
  'hex')::uuid`;

/**
 * Issue 12 (events feed, redelivery, recovery, secret rotation):
 * - events: one row per event the service emits, with the exact body webhooks receive and the id of the
 *   transaction that wrote it (GET /events lists only rows older than every running transaction);
 * - webhook_deliveries refer to their event (whose body they send) and to the delivery they repeat;
 * - webhook_endpoints keep the previous secret, sealed, while a rotation's overlap lasts.
 */
export class Events1763763000000 implements MigrationInterface {
  name = 'Events1763763000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE events (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        event varchar(64) NOT NULL,
        occurred_at timestamptz(3) NOT NULL,
        -- The exact bytes every delivery of the event sends and signs: {"event","timestamp","data"}.
        body bytea NOT NULL,
        -- The writing transaction: GET /events shows a row only once every transaction up to it has ended.
        txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        created_at timestamptz(3) NOT NULL
      )`);
    // The feed's order, per organisation, and the same with the event filter.
    await queryRunner.query(`CREATE INDEX events_feed_idx ON events (organisation_id, txid, id)`);
    await queryRunner.query(`CREATE INDEX events_feed_event_idx ON events (organisation_id, event, txid, id)`);
    // Retention: the oldest rows, across organisations.
    await queryRunner.query(`CREATE INDEX events_created_at_idx ON events (created_at)`);

    // Existing deliveries become events: the outbox wrote one row per endpoint with the same organisation,
    // event, body and time, so those four name an event. Their bodies hold their time; occurred_at takes
    // the time they were recorded. Their txid (this migration's) is below every later transaction's.
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD COLUMN event_id uuid, ADD COLUMN redelivery_of uuid`);
    await queryRunner.query(`
      INSERT INTO events (id, organisation_id, event, occurred_at, body, created_at)
      SELECT ${uuidV7At('created_at')}, organisation_id, event, created_at, body, created_at
        FROM (SELECT DISTINCT organisation_id, event, body, created_at FROM webhook_deliveries) existing`);
    await queryRunner.query(`
      UPDATE webhook_deliveries AS delivery SET event_id = event.id
        FROM events AS event
       WHERE event.organisation_id = delivery.organisation_id AND event.event = delivery.event
         AND event.body = delivery.body AND event.created_at = delivery.created_at`);
    // redelivery_of has no foreign key: a redelivery has the event and endpoint of the delivery it repeats,
    // so every cascade (event, endpoint, organisation) removes both together.
    await queryRunner.query(`
      ALTER TABLE webhook_deliveries
        ALTER COLUMN event_id SET NOT NULL,
        ADD CONSTRAINT webhook_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE CASCADE,
        DROP COLUMN body`);
    // The cascade from a pruned event, and recovery's latest delivery per event of an endpoint.
    await queryRunner.query(`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`);

    // Set together: while previous_secret_expires_at is in the future, deliveries are also signed with the
    // previous secret (sealed like secret_sealed; null when the endpoint had none, which signs with "").
    await queryRunner.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN previous_secret_sealed bytea,
        ADD COLUMN previous_secret_expires_at timestamptz(3)`);
    // Retention erases previous secrets whose overlap ended; few endpoints are ever in one.
    await queryRunner.query(`
      CREATE INDEX webhook_endpoints_previous_secret_idx ON webhook_endpoints (previous_secret_expires_at)
       WHERE previous_secret_expires_at IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX webhook_endpoints_previous_secret_idx`);
    await queryRunner.query(
      `ALTER TABLE webhook_endpoints DROP COLUMN previous_secret_sealed, DROP COLUMN previous_secret_expires_at`,
    );
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD COLUMN body bytea`);
    await queryRunner.query(
      `UPDATE webhook_deliveries AS delivery SET body = event.body FROM events AS event WHERE event.id = delivery.event_id`,
    );
    await queryRunner.query(`
      ALTER TABLE webhook_deliveries
        ALTER COLUMN body SET NOT NULL,
        DROP COLUMN event_id,
        DROP COLUMN redelivery_of`);
    await queryRunner.query(`DROP TABLE events`);
  }
}
