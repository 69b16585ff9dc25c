import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issues 21, 22, 25: each event keeps the W3C traceparent of the request that caused it, sent on every
 * delivery of it (redeliveries too) and never part of its body. Null for the command line's events and for
 * events recorded before this column.
 */
export class EventTraceparent1763763950000 implements MigrationInterface {
  name = 'EventTraceparent1763763950000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE events ADD COLUMN traceparent varchar(55)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE events DROP COLUMN traceparent`);
  }
}
