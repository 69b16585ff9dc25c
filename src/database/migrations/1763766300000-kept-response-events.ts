import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 50 (one event catalogue): the names of the events a kept Idempotency-Key response's request recorded
 * naming an employee, so erasure redacts the response by those events' rule (events/event-catalogue.ts) rather
 * than by its shape. Nullable with no default, so adding it is instant; responses kept without it (by 4.0.0,
 * at most 24 hours old) are redacted as 4.0.0 did.
 */
export class KeptResponseEvents1763766300000 implements MigrationInterface {
  name = 'KeptResponseEvents1763766300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE idempotency_keys ADD COLUMN event_names text[]`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE idempotency_keys DROP COLUMN event_names`);
  }
}
