import { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1763762700000 implements MigrationInterface {
  name = 'Webhooks1763762700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        url varchar(2048) NOT NULL,
        events text[] NOT NULL,
        -- AES-256-GCM sealed secret (see secret-box.ts); null when the endpoint has none.
        secret_sealed bytea,
        created_at timestamptz(3) NOT NULL
      )`);
    // List order (createdAt, id); also serves the per-event lookup, since an organisation has at most 25.
    await queryRunner.query(
      `CREATE INDEX webhook_endpoints_list_idx ON webhook_endpoints (organisation_id, created_at, id)`,
    );

    // The outbox: one row per endpoint per event, written in the transaction of the change.
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event varchar(64) NOT NULL,
        body bytea NOT NULL,
        created_at timestamptz(3) NOT NULL,
        claimed_at timestamptz(3),
        outcome varchar(16),
        status_code integer,
        error varchar(500),
        duration_ms integer,
        attempted_at timestamptz(3),
        CONSTRAINT webhook_deliveries_outcome_check CHECK (outcome IN ('delivered', 'failed', 'refused'))
      )`);
    // What the dispatcher claims: unfinished rows, oldest first.
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_unfinished_idx ON webhook_deliveries (created_at, id) WHERE outcome IS NULL`,
    );
    // An endpoint's delivery log, newest first.
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_organisation_id_idx ON webhook_deliveries (organisation_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    await queryRunner.query(`DROP TABLE webhook_endpoints`);
  }
}
