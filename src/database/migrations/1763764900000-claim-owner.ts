import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 37 (one endpoint's drain): which dispatcher claimed each delivery, so one dispatcher at a time owns an
 * endpoint and may hold more of its deliveries than it sends at once (webhooks/sql/webhook-claim.sql). Nullable
 * with no default, so adding it is instant; rows claimed before it (and test events, sent at once) have none and
 * count for no dispatcher. The claim's new signature replaces the old one, applied after the migrations:
 * instances of the previous version fail to claim (and try again) until they are replaced.
 */
export class ClaimOwner1763764900000 implements MigrationInterface {
  name = 'ClaimOwner1763764900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD COLUMN claimed_by uuid`);
    await queryRunner.query(
      `DROP FUNCTION IF EXISTS webhook_claim(integer, integer, timestamptz, timestamptz, uuid[])`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION IF EXISTS webhook_claim(integer, integer, timestamptz, timestamptz, uuid[], uuid)`,
    );
    await queryRunner.query(`ALTER TABLE webhook_deliveries DROP COLUMN claimed_by`);
  }
}
