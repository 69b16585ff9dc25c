import { MigrationInterface, QueryRunner } from 'typeorm';
import { readSqlFunctionFile } from '../sql-functions';

/**
 * The function files of release 4.0.0, whose every start applied each file whose SHA-256 differed from the one
 * sql_function_files recorded (CREATE OR REPLACE). Their text is frozen from here on (docs/adr/0001).
 */
const RELEASE_4_FILES = [
  'employees/sql/employee-detail.sql',
  'employees/sql/employee-search-apply.sql',
  'employees/sql/insert-employees.sql',
  'employees/sql/organisation-employee-counts-apply.sql',
  'events/sql/record-events.sql',
  'idempotency/sql/claim-idempotency-key.sql',
  'ratings/sql/insert-rating-if-rateable.sql',
  'ratings/sql/person-skills-keep-latest-rating.sql',
  'skills/sql/skill-name-order.sql',
  'webhooks/sql/uuid-v7-sharing-time.sql',
  'webhooks/sql/webhook-claim.sql',
  'webhooks/sql/webhook-fan-out.sql',
];

/**
 * Issue 50: SQL functions are created by migrations, never by a starting server, so instances of two releases
 * serving together during a rolling update do not overwrite each other's functions. This one does, once, what a
 * start of release 4 did: it runs the files whose text sql_function_files does not record (all of them on a new
 * database; none on one release 4 migrated, whose functions stay as they are) and records them as release 4 does,
 * so an instance of release 4 starting on this database, during the update or a rollback, finds nothing to apply.
 * Functions changed later get new names, created by the migrations that introduce them.
 */
export class Release4SqlFunctions1763765600000 implements MigrationInterface {
  name = 'Release4SqlFunctions1763765600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const rows = (await queryRunner.query('SELECT file, checksum FROM sql_function_files')) as Array<{
      file: string;
      checksum: string;
    }>;
    const recorded = new Map(rows.map(({ file, checksum }) => [file, checksum]));
    for (const { file, text, checksum } of RELEASE_4_FILES.map((each) => readSqlFunctionFile(each))) {
      if (recorded.get(file) === checksum) continue;
      await queryRunner.query(text);
      await queryRunner.query(
        `INSERT INTO sql_function_files (file, checksum, applied_at) VALUES ($1, $2, now())
         ON CONFLICT (file) DO UPDATE SET checksum = excluded.checksum, applied_at = excluded.applied_at`,
        [file, checksum],
      );
    }
  }

  /** Nothing to undo: release 4, the one before, keeps these functions by their files' checksums itself. */
  async down(): Promise<void> {}
}
