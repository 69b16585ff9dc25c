-- The trigger function of employees_count_insert_delete and employees_count_update (migration 1763762800000):
-- organisation_employee_counts keeps each organisation's number of employees and of active ones in the writing
-- transaction, so an unfiltered (or isActive-only) list total is a few rows read (EmployeesRepository.countAll).
--
-- Each organisation's counts are spread over up to 64 slot rows (migration 1763763200000), so concurrent employee
-- writes in one organisation do not queue on one row: a database session always writes the same slot, its process
-- id modulo 64 (the pool's connections, opened together, get consecutive process ids and so different slots), and
-- readers sum them. A slot may go negative (a deactivation lands on any slot); only the sum is meaningful, and it
-- stays exact. A transaction writing many employees locks one row per organisation, so two such transactions
-- cannot deadlock by taking slots in opposite orders. A transaction-local setting overrides the choice (tests use
-- it to pick the slot).
--
-- Decrements upsert too (the transaction's slot may have no row yet), but only while the organisation exists:
-- when an organisation is deleted, its employees and its counts rows go by two cascades in either order, and the
-- employees' decrements must neither re-create a counts row nor insert one referencing the deleted organisation (a
-- foreign key error). In that cascade the organisation's row is already gone to this transaction, so the check
-- skips them whichever cascade runs first.
CREATE OR REPLACE FUNCTION organisation_employee_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen smallint := coalesce(
    NULLIF(current_setting('skills.employee_count_slot', true), '')::smallint,
    pg_backend_pid() % 64);
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
$$;
