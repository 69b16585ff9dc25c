import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 36: each SQL function's current text lives in one file beside the repository that calls it
 * (`<feature>/sql/*.sql`), and the migration runner applies, after the versioned migrations, every file whose text
 * changed (src/database/sql-functions.ts, docs/adr/0001). This table remembers, per file, the SHA-256 of the text
 * last applied. It starts empty: the first start after this migration applies every file once.
 */
export class SqlFunctionFiles1763764500000 implements MigrationInterface {
  name = 'SqlFunctionFiles1763764500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sql_function_files (
        -- The file's path under the code's root, e.g. ratings/sql/insert-rating-if-rateable.sql.
        file varchar(300) PRIMARY KEY,
        checksum char(64) NOT NULL,
        applied_at timestamptz(3) NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sql_function_files`);
  }
}
