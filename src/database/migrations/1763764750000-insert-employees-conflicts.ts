import { MigrationInterface, QueryRunner } from 'typeorm';

const SIGNATURE = `insert_employees(uuid, uuid[], text[], text[], text[], text[], text[], text[], text[], timestamptz[],
                                    timestamptz[], boolean[], timestamptz[], timestamptz[])`;

/**
 * Issue 41: insert_employees answers the unique index a duplicate would have broken (text) instead of raising
 * the violation (void), which PostgreSQL logged with the taken personnel number or e-mail. A function's result
 * type changes only by dropping it; src/employees/sql/insert-employees.sql creates the new one right after the
 * migrations. Down drops it and forgets the file, so the earlier release's file creates its own at its start.
 */
export class InsertEmployeesConflicts1763764750000 implements MigrationInterface {
  name = 'InsertEmployeesConflicts1763764750000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION IF EXISTS ${SIGNATURE}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION IF EXISTS ${SIGNATURE}`);
    await queryRunner.query(`DELETE FROM sql_function_files WHERE file = 'employees/sql/insert-employees.sql'`);
  }
}
