import { MigrationInterface, QueryRunner } from 'typeorm';
import { ONE_ROW_COUNTS_APPLY } from './1763762800000-performance';

/** Rows each organisation's counts are spread over, one per database session (modulo). */
const SLOTS = 64;

/**
 * Issue 14 (employee writes do not queue): organisation_employee_counts had one row per organisation, so
 * every employee insert, delete or (de)activation locked that row until COMMIT and concurrent writes in one
 * organisation queued behind each other. Each organisation's counts are now spread over up to 64 slot rows;
 * a writing session adds to its own and readers sum them. A slot may go negative (a deactivation
 * lands on any slot); only the sum is meaningful, and it stays exact.
 *
 * The existing counts move to slot 0 in this transaction. ALTER TABLE locks the (one row per organisation,
 * so small) counts table until COMMIT, so no employee write runs the old trigger body against the new
 * shape or counts twice: writes wait for the migration, for as long as it takes to re-key those rows.
 */
export class EmployeeCountSlots1763763200000 implements MigrationInterface {
  name = 'EmployeeCountSlots1763763200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A constant default fills existing rows without rewriting the table: each becomes its organisation's slot 0.
    await queryRunner.query(`ALTER TABLE organisation_employee_counts ADD COLUMN slot smallint NOT NULL DEFAULT 0`);
    await queryRunner.query(`ALTER TABLE organisation_employee_counts ALTER COLUMN slot DROP DEFAULT`);
    await queryRunner.query(`
      ALTER TABLE organisation_employee_counts
        DROP CONSTRAINT organisation_employee_counts_pkey,
        ADD PRIMARY KEY (organisation_id, slot)`);
    // A database session always writes the same slot, its process id modulo 64: the pool's connections,
    // opened together, get consecutive process ids and so different slots, and two transactions meet on one
    // row only when their sessions' ids collide. A transaction writing many employees locks one row per
    // organisation, so two such transactions cannot deadlock by taking slots in opposite orders. A
    // transaction-local setting overrides the choice (tests use it to pick the slot).
    //
    // Decrements upsert too (the transaction's slot may have no row yet), but only while the organisation
    // exists: when an organisation is deleted, its employees and its counts rows go by two cascades in either
    // order, and the employees' decrements must neither re-create a counts row nor insert one referencing
    // the deleted organisation (a foreign key error). In that cascade the organisation's row is already
    // gone to this transaction, so the check skips them whichever cascade runs first.
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION organisation_employee_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        chosen smallint := coalesce(
          NULLIF(current_setting('skills.employee_count_slot', true), '')::smallint,
          pg_backend_pid() % ${SLOTS});
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO organisation_employee_counts AS c (organisation_id, slot, total, active)
          SELECT OLD.organisation_id, chosen, -1, -(OLD.left_at IS NULL)::int
           WHERE EXISTS (SELECT 1 FROM organisations WHERE id = OLD.organisation_id)
          ON CONFLICT (organisation_id, slot)
          DO UPDATE SET total = c.total - 1, active = c.active - (OLD.left_at IS NULL)::int;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO organisation_employee_counts AS c (organisation_id, slot, total, active)
          VALUES (NEW.organisation_id, chosen, 1, (NEW.left_at IS NULL)::int)
          ON CONFLICT (organisation_id, slot)
          DO UPDATE SET total = c.total + 1, active = c.active + (NEW.left_at IS NULL)::int;
        END IF;
        RETURN NULL;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // First, so no employee write adds to a slot between the sums and the delete of the slots.
    await queryRunner.query(`LOCK TABLE organisation_employee_counts IN ACCESS EXCLUSIVE MODE`);
    // Back to one counts row per organisation: the trigger body of migration 1763762800000.
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION organisation_employee_counts_apply() RETURNS trigger LANGUAGE plpgsql
        AS $$${ONE_ROW_COUNTS_APPLY}$$`);
    // Each organisation's sum into its slot 0 (created where missing), then the other slots go.
    await queryRunner.query(`
      INSERT INTO organisation_employee_counts AS c (organisation_id, slot, total, active)
      SELECT organisation_id, 0, sum(total), sum(active) FROM organisation_employee_counts GROUP BY organisation_id
      ON CONFLICT (organisation_id, slot) DO UPDATE SET total = excluded.total, active = excluded.active`);
    await queryRunner.query(`DELETE FROM organisation_employee_counts WHERE slot <> 0`);
    await queryRunner.query(`
      ALTER TABLE organisation_employee_counts
        DROP CONSTRAINT organisation_employee_counts_pkey,
        ADD PRIMARY KEY (organisation_id)`);
    await queryRunner.query(`ALTER TABLE organisation_employee_counts DROP COLUMN slot`);
  }
}
