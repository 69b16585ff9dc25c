import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 37 (fair delivery): dispatchers claim per endpoint, in turn, at most WEBHOOK_ENDPOINT_CONCURRENCY in
 * flight to each across every process, where they claimed the oldest deliveries across everyone (one dead
 * receiver's backlog took every slot).
 * - webhook_deliveries_queue_idx: each endpoint's unfinished deliveries in order. The claim walks the distinct
 *   endpoints on it (a loose index scan) and reads the first few rows of each, so an endpoint with 100,000
 *   waiting costs it what one with ten does.
 * - webhook_deliveries_sending_idx: the deliveries claimed and not settled, per endpoint: what is in flight,
 *   counted without reading an endpoint's backlog.
 * - webhook_deliveries_unfinished_idx (every unfinished delivery, oldest first) served the old claim; the
 *   metrics, which read every unfinished delivery, read the queue index as well.
 * Built CONCURRENTLY, outside a transaction, so deliveries keep being written and sent meanwhile; an index a
 * crash left half-built (invalid) is dropped first, since a failed migration is not recorded and runs again.
 *
 * The claim itself is the function webhook_claim, in src/webhooks/sql/webhook-claim.sql.
 */
export class FairClaim1763764650000 implements MigrationInterface {
  name = 'FairClaim1763764650000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS webhook_deliveries_queue_idx`);
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY webhook_deliveries_queue_idx ON webhook_deliveries (endpoint_id, created_at, id)
        WHERE outcome IS NULL`,
    );
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS webhook_deliveries_sending_idx`);
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY webhook_deliveries_sending_idx ON webhook_deliveries (endpoint_id, claimed_at)
        WHERE outcome IS NULL AND claimed_at IS NOT NULL`,
    );
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS webhook_deliveries_unfinished_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION IF EXISTS webhook_claim(integer, integer, timestamptz, timestamptz, uuid[])`,
    );
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS webhook_deliveries_unfinished_idx ON webhook_deliveries (created_at, id)
        WHERE outcome IS NULL`,
    );
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS webhook_deliveries_sending_idx`);
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS webhook_deliveries_queue_idx`);
  }
}
