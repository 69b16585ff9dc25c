import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 39 (the console's delivery detail): the first 1 KiB of each delivery's response body, as the receiver
 * sent it, beside the status code already kept. Null until answered, and when no answer came. Nullable with no
 * default and no check (a check would scan the table under its lock; the sender keeps it to 1 KiB), so adding it
 * is instant; retention prunes it with its delivery (the events' cascade).
 */
export class DeliveryResponse1763764700000 implements MigrationInterface {
  name = 'DeliveryResponse1763764700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD COLUMN response_excerpt bytea`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries DROP COLUMN response_excerpt`);
  }
}
