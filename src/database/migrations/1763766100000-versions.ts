import { MigrationInterface, QueryRunner } from 'typeorm';
import { createSqlFunctions } from '../sql-functions';

/**
 * Issue 47 (writes that never overwrite each other). Employees and webhook endpoints carry a `version`, 1 for the
 * rows there are; an employee's is bumped by a trigger in the statement that changes the row, so every writer
 * (a rolling update's instances of release 4 too) moves it. Events name the resource they are about and its
 * version after the change (`resource_id`, `resource_version`, recorded by record_events_v2), indexed, so one
 * resource's history, and the fields changed since a version, are read without scanning the organisation's
 * feed. Events recorded before this are filled from what they already say: an employee event's employee_id, a
 * skill event's data.id; their version is unknown (0).
 */
export class Versions1763766100000 implements MigrationInterface {
  name = 'Versions1763766100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE employees ADD COLUMN version integer NOT NULL DEFAULT 1`);
    await queryRunner.query(`ALTER TABLE webhook_endpoints ADD COLUMN version integer NOT NULL DEFAULT 1`);
    await queryRunner.query(`ALTER TABLE events ADD COLUMN resource_id uuid`);
    await queryRunner.query(`ALTER TABLE events ADD COLUMN resource_version integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`
      UPDATE events SET resource_id = employee_id
       WHERE event IN ('employee.created', 'employee.updated', 'employee.deactivated', 'employee.erased')`);
    await queryRunner.query(`
      UPDATE events SET resource_id = (convert_from(body, 'UTF8')::jsonb #>> '{data,id}')::uuid
       WHERE event IN ('skill.created', 'skill.updated', 'skill.deleted')`);
    await queryRunner.query(`
      CREATE INDEX events_resource_idx ON events (organisation_id, resource_id, resource_version, txid, id)
        WHERE resource_id IS NOT NULL`);
    await createSqlFunctions(queryRunner, [
      'employees/sql/employee-version-bump-v1.sql',
      'employees/sql/employee-detail-v2.sql',
      'events/sql/record-events-v2.sql',
    ]);
    await queryRunner.query(`
      CREATE TRIGGER employees_version_bump BEFORE UPDATE ON employees
        FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION employee_version_bump_v1()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER employees_version_bump ON employees`);
    await queryRunner.query(`DROP FUNCTION employee_version_bump_v1()`);
    await queryRunner.query(`DROP FUNCTION employee_detail_v2(uuid, uuid)`);
    await queryRunner.query(
      `DROP FUNCTION record_events_v2(uuid, uuid[], text[], timestamptz[], bytea[], timestamptz, varchar[], uuid[],
                                      uuid[], integer[])`,
    );
    await queryRunner.query(`DROP INDEX events_resource_idx`);
    await queryRunner.query(`ALTER TABLE events DROP COLUMN resource_version`);
    await queryRunner.query(`ALTER TABLE events DROP COLUMN resource_id`);
    await queryRunner.query(`ALTER TABLE webhook_endpoints DROP COLUMN version`);
    await queryRunner.query(`ALTER TABLE employees DROP COLUMN version`);
  }
}
