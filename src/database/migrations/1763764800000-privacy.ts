import { MigrationInterface, QueryRunner } from 'typeorm';

const FOUR_SCOPES = `ARRAY['read', 'write', 'webhooks', 'events']`;
const FIVE_SCOPES = `ARRAY['read', 'write', 'webhooks', 'events', 'privacy']`;

/**
 * Issue 38 (data protection). The `privacy` scope: a key that had every scope keeps having every scope. The
 * employee an event names (`employee_id`; at most one per event) and the employees a kept Idempotency-Key
 * response's request named in its events (`employee_ids`), so erasure and export find their rows by index
 * rather than by reading every body; events recorded before this are filled from their bodies once, here. The
 * leavers' index lets the retention job find those due for erasure across organisations. record_events takes
 * the new column (its text is in events/sql/record-events.sql, applied after this).
 */
export class Privacy1763764800000 implements MigrationInterface {
  name = 'Privacy1763764800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check`);
    await queryRunner.query(`UPDATE api_keys SET scopes = ${FIVE_SCOPES} WHERE scopes @> ${FOUR_SCOPES}`);
    await queryRunner.query(`
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check
        CHECK (scopes <@ ${FIVE_SCOPES} AND cardinality(scopes) > 0)`);

    await queryRunner.query(`ALTER TABLE events ADD COLUMN employee_id uuid`);
    await queryRunner.query(`
      UPDATE events SET employee_id = named.employee_id
        FROM (SELECT id, CASE WHEN event LIKE 'employee.%' THEN body #>> '{data,id}'
                              WHEN event = 'position.updated' THEN body #>> '{data,replacesPerson,id}'
                              ELSE body #>> '{data,employeeId}' END::uuid AS employee_id
                FROM (SELECT id, event, convert_from(body, 'UTF8')::jsonb AS body FROM events
                       WHERE event IN ('employee.created', 'employee.updated', 'employee.deactivated', 'skill.rated',
                                       'employee_skill.deleted', 'position.updated')) parsed) named
       WHERE events.id = named.id AND named.employee_id IS NOT NULL`);
    await queryRunner.query(`
      CREATE INDEX events_employee_idx ON events (organisation_id, employee_id, txid, id)
        WHERE employee_id IS NOT NULL`);
    // IF EXISTS: after a down(), the old signature is only back once a migrate of the older code has run.
    await queryRunner.query(
      `DROP FUNCTION IF EXISTS record_events(uuid, uuid[], text[], timestamptz[], bytea[], timestamptz, varchar[])`,
    );

    await queryRunner.query(`ALTER TABLE idempotency_keys ADD COLUMN employee_ids uuid[]`);
    // Kept creations of employees name theirs in the body; other kept responses of a day's age go unnamed.
    await queryRunner.query(`
      UPDATE idempotency_keys SET employee_ids = ARRAY[(body::jsonb #>> '{data,id}')::uuid]
       WHERE status_code < 400 AND body::jsonb #> '{data}' ? 'personnelNumber'`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_employees_idx ON idempotency_keys USING gin (employee_ids)`);

    await queryRunner.query(`CREATE INDEX employees_leavers_idx ON employees (left_at) WHERE left_at IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX employees_leavers_idx`);
    await queryRunner.query(`ALTER TABLE idempotency_keys DROP COLUMN employee_ids`);
    await queryRunner.query(
      `DROP FUNCTION record_events(uuid, uuid[], text[], timestamptz[], bytea[], timestamptz, varchar[], uuid[])`,
    );
    // The next migrate applies the function file of the code it runs with.
    await queryRunner.query(`DELETE FROM sql_function_files WHERE file = 'events/sql/record-events.sql'`);
    await queryRunner.query(`ALTER TABLE events DROP COLUMN employee_id`);
    await queryRunner.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check`);
    await queryRunner.query(`UPDATE api_keys SET scopes = array_remove(scopes, 'privacy')`);
    await queryRunner.query(`DELETE FROM api_keys WHERE cardinality(scopes) = 0`);
    await queryRunner.query(`
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check
        CHECK (scopes <@ ${FOUR_SCOPES} AND cardinality(scopes) > 0)`);
  }
}
