import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 21 (cursor paging): a search with `updatedSince` reads employee_search by (updatedAt, employee id)
 * within an organisation, and a cursor page starts its range scan at its key. Built CONCURRENTLY, outside a
 * transaction, so employee writes go on meanwhile; a half-built (invalid) index a crash left is dropped first.
 */
export class EmployeeSearchUpdatedIndex1763763500000 implements MigrationInterface {
  name = 'EmployeeSearchUpdatedIndex1763763500000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS employee_search_updated_idx`);
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY employee_search_updated_idx ON employee_search (organisation_id, updated_at, employee_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS employee_search_updated_idx`);
  }
}
