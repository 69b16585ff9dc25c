import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 11 (safe retries): the response kept for each Idempotency-Key of an organisation, written in the
 * transaction of the change it answers, kept 24 h (expires_at) and pruned by the retention job.
 */
export class IdempotencyKeys1763763100000 implements MigrationInterface {
  name = 'IdempotencyKeys1763763100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        key varchar(255) NOT NULL,
        -- SHA-256 of the method, the path and the body as a canonical JSON value.
        fingerprint char(64) NOT NULL,
        status_code integer NOT NULL,
        -- The exact response body, replayed as it was sent.
        body text NOT NULL,
        created_at timestamptz(3) NOT NULL,
        expires_at timestamptz(3) NOT NULL,
        PRIMARY KEY (organisation_id, key)
      )`);
    // The retention job deletes by age.
    await queryRunner.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
  }
}
