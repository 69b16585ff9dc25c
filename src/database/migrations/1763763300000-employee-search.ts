import { MigrationInterface, QueryRunner } from 'typeorm';

/** An employee's lowered search text, on the columns of `row`; chr(1) keeps a match inside one field. */
const searchTextOf = (row: string) =>
  `lower(${row}.first_name || ' ' || ${row}.last_name || chr(1) || ${row}.business_email || chr(1) || ${row}.personnel_number)`;

/** The columns of employee_search, in insert order, and their values from an employees row. */
const COLUMNS = 'employee_id, organisation_id, created_at, updated_at, active, department_id, search_text';
const valuesOf = (row: string) =>
  `${row}.id, ${row}.organisation_id, ${row}.created_at, ${row}.updated_at, ${row}.left_at IS NULL, ` +
  `${row}.department_id, ${searchTextOf(row)}`;

/**
 * Issue 14 (search totals): employee_search, a narrow copy of what a searched list reads (the search text,
 * the list orders and the filtered columns), kept by triggers in the writing transaction, so a search's exact
 * count rechecks its trigram matches on ~150-byte rows of one organisation lying together, instead of on
 * wide employees rows spread over the whole table (one 8 kB page per match).
 *
 * Physical order: the backfill writes the rows ordered by (organisation_id, created_at, id), which is what
 * CLUSTER on employee_search_list_idx would produce, without rewriting the table a second time; the index is
 * marked as the clustering index so an operator's plain `CLUSTER employee_search` restores that order.
 * fillfactor 90 leaves room on each page, so an update (a rename, a deactivation, a touched updated_at) writes
 * the new row version on the same page and keeps the order; only new employees land elsewhere (at the end of
 * the table, in write order), which a periodic CLUSTER gathers again (docs/performance.md).
 *
 * Locks: CREATE TRIGGER takes SHARE ROW EXCLUSIVE on employees until this migration commits, so employee
 * writes wait for the backfill and index builds (~34 s on the 1M-row bench data; reads go on). That is what
 * makes the copy exact with no reconciliation step: no write can slip between the backfill and the triggers.
 */
export class EmployeeSearch1763763300000 implements MigrationInterface {
  name = 'EmployeeSearch1763763300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // No foreign key to organisations: an organisation's deletion cascades to its employees, and from them here.
    await queryRunner.query(`
      CREATE TABLE employee_search (
        employee_id uuid PRIMARY KEY REFERENCES employees (id) ON DELETE CASCADE,
        organisation_id uuid NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        active boolean NOT NULL,
        department_id varchar(64),
        search_text text NOT NULL
      ) WITH (fillfactor = 90)`);
    // An upsert, so an update also repairs a missing row (e.g. one a bulk load with triggers off never wrote);
    // its WHERE skips writing a row version when nothing the search reads has changed.
    await queryRunner.query(`
      CREATE FUNCTION employee_search_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO employee_search AS s (${COLUMNS})
        VALUES (${valuesOf('NEW')})
        ON CONFLICT (employee_id) DO UPDATE
           SET organisation_id = excluded.organisation_id, created_at = excluded.created_at,
               updated_at = excluded.updated_at, active = excluded.active,
               department_id = excluded.department_id, search_text = excluded.search_text
         WHERE (s.*) IS DISTINCT FROM (excluded.*);
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER employees_search_insert AFTER INSERT ON employees
        FOR EACH ROW EXECUTE FUNCTION employee_search_apply()`);
    await queryRunner.query(`
      CREATE TRIGGER employees_search_update
        AFTER UPDATE OF organisation_id, first_name, last_name, business_email, personnel_number, department_id,
                        left_at, created_at, updated_at ON employees
        FOR EACH ROW EXECUTE FUNCTION employee_search_apply()`);
    // Deletes need no trigger: the foreign key cascades them.

    // Indexes after the load: built in bulk, and they do not slow the 1M-row insert.
    await queryRunner.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    await queryRunner.query(`
      INSERT INTO employee_search (${COLUMNS})
      SELECT ${valuesOf('e')} FROM employees e ORDER BY e.organisation_id, e.created_at, e.id`);
    // The page order of a search (createdAt, id) within an organisation, and the clustering order.
    await queryRunner.query(
      `CREATE INDEX employee_search_list_idx ON employee_search (organisation_id, created_at, employee_id)`,
    );
    await queryRunner.query(`ALTER TABLE employee_search CLUSTER ON employee_search_list_idx`);
    // btree_gin (migration 1763762800000) puts the organisation in the trigram index: a search reads one tenant's
    // matches, and since the rows of a tenant lie together, its posting-list entries do too.
    await queryRunner.query(
      `CREATE INDEX employee_search_trgm_idx ON employee_search USING gin (organisation_id, search_text gin_trgm_ops)`,
    );
    await queryRunner.query(`ANALYZE employee_search`);
    // Searches no longer read employees' own trigram index; dropping it spares every employee write a GIN update.
    await queryRunner.query(`DROP INDEX employees_search_trgm_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX employees_search_trgm_idx ON employees USING gin (organisation_id, ${searchTextOf('employees')} gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP TRIGGER employees_search_update ON employees`);
    await queryRunner.query(`DROP TRIGGER employees_search_insert ON employees`);
    await queryRunner.query(`DROP FUNCTION employee_search_apply()`);
    await queryRunner.query(`DROP TABLE employee_search`);
  }
}
