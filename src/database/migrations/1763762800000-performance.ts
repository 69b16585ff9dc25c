import { MigrationInterface, QueryRunner } from 'typeorm';

/** The lowered search text of an employee; the expression the employees search condition is written on. */
const SEARCH_TEXT = `lower(first_name || ' ' || last_name || chr(1) || business_email || chr(1) || personnel_number)`;

/**
 * The body of the first organisation_employee_counts_apply, one counts row per organisation (the migration
 * 1763763200000 spreads them over slots, and its down() restores this). Increments upsert the organisation's row;
 * decrements only update it, so an employee deleted by the cascade of its organisation's deletion never re-creates
 * the (also cascaded) counts row.
 */
export const ONE_ROW_COUNTS_APPLY = `
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE organisation_employee_counts
             SET total = total - 1, active = active - (OLD.left_at IS NULL)::int
           WHERE organisation_id = OLD.organisation_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO organisation_employee_counts AS c (organisation_id, total, active)
          VALUES (NEW.organisation_id, 1, (NEW.left_at IS NULL)::int)
          ON CONFLICT (organisation_id)
          DO UPDATE SET total = c.total + 1, active = c.active + (NEW.left_at IS NULL)::int;
        END IF;
        RETURN NULL;
      END
      `;

/**
 * Issue 6 (performance):
 * - organisation_employee_counts: each organisation's exact number of employees and of active ones, kept by
 *   triggers in the writing transaction, so an unfiltered (or isActive-only) list total is one row read;
 * - the trigram search index scoped to the organisation (btree_gin), so a search reads one tenant's matches
 *   instead of intersecting every tenant's with a bitmap of the organisation.
 */
export class Performance1763762800000 implements MigrationInterface {
  name = 'Performance1763762800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE organisation_employee_counts (
        organisation_id uuid PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
        total bigint NOT NULL,
        active bigint NOT NULL
      )`);
    await queryRunner.query(`
      CREATE FUNCTION organisation_employee_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$${ONE_ROW_COUNTS_APPLY}$$`);
    await queryRunner.query(`
      CREATE TRIGGER employees_count_insert_delete AFTER INSERT OR DELETE ON employees
        FOR EACH ROW EXECUTE FUNCTION organisation_employee_counts_apply()`);
    // Only updates that move an employee between organisations or between active and deactivated.
    await queryRunner.query(`
      CREATE TRIGGER employees_count_update AFTER UPDATE OF organisation_id, left_at ON employees
        FOR EACH ROW
        WHEN (OLD.organisation_id IS DISTINCT FROM NEW.organisation_id OR (OLD.left_at IS NULL) <> (NEW.left_at IS NULL))
        EXECUTE FUNCTION organisation_employee_counts_apply()`);
    // Backfill. CREATE TRIGGER holds a lock that blocks employee writes until this migration commits,
    // so none slips between the count and the triggers.
    await queryRunner.query(`
      INSERT INTO organisation_employee_counts (organisation_id, total, active)
      SELECT organisation_id, count(*), count(*) FILTER (WHERE left_at IS NULL) FROM employees GROUP BY organisation_id`);

    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await queryRunner.query(`DROP INDEX employees_search_trgm_idx`);
    await queryRunner.query(
      `CREATE INDEX employees_search_trgm_idx ON employees USING gin (organisation_id, ${SEARCH_TEXT} gin_trgm_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX employees_search_trgm_idx`);
    await queryRunner.query(
      `CREATE INDEX employees_search_trgm_idx ON employees USING gin (${SEARCH_TEXT} gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP TRIGGER employees_count_update ON employees`);
    await queryRunner.query(`DROP TRIGGER employees_count_insert_delete ON employees`);
    await queryRunner.query(`DROP FUNCTION organisation_employee_counts_apply()`);
    await queryRunner.query(`DROP TABLE organisation_employee_counts`);
  }
}
