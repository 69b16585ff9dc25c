import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 11 (delta sync): `updatedSince` lists order by (updatedAt, id) within an organisation. Built
 * CONCURRENTLY, outside a transaction, so a large employees table keeps taking writes meanwhile; an index
 * a crash left half-built (invalid) is dropped first, since a failed migration is not recorded and runs again.
 */
export class UpdatedSinceIndexes1763763150000 implements MigrationInterface {
  name = 'UpdatedSinceIndexes1763763150000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [index, table] of [
      ['employees_updated_idx', 'employees'],
      ['skills_updated_idx', 'skills'],
    ]) {
      await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
      await queryRunner.query(`CREATE INDEX CONCURRENTLY ${index} ON ${table} (organisation_id, updated_at, id)`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS skills_updated_idx`);
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS employees_updated_idx`);
  }
}
