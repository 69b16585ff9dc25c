-- The trigger function of employees_search_insert and employees_search_update (migration 1763763300000):
-- employee_search is a narrow copy of what a searched list reads (the search text, the list orders and the filtered
-- columns), kept in the writing transaction, so a search's exact count rechecks its trigram matches on small rows of
-- one organisation lying together (see searchFilters in employees.repository.ts). The search text is the lowered
-- names, e-mail and personnel number; chr(1) keeps a match inside one field. An upsert, so an update also repairs a
-- missing row (e.g. one a bulk load with triggers off never wrote); its WHERE skips writing a row version when
-- nothing the search reads has changed. Deletes need no trigger: the foreign key cascades them.
CREATE OR REPLACE FUNCTION employee_search_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO employee_search AS s (employee_id, organisation_id, created_at, updated_at, active, department_id,
                                    search_text)
  VALUES (NEW.id, NEW.organisation_id, NEW.created_at, NEW.updated_at, NEW.left_at IS NULL, NEW.department_id,
          lower(NEW.first_name || ' ' || NEW.last_name || chr(1) || NEW.business_email || chr(1) || NEW.personnel_number))
  ON CONFLICT (employee_id) DO UPDATE
     SET organisation_id = excluded.organisation_id, created_at = excluded.created_at,
         updated_at = excluded.updated_at, active = excluded.active,
         department_id = excluded.department_id, search_text = excluded.search_text
   WHERE (s.*) IS DISTINCT FROM (excluded.*);
  RETURN NULL;
END
$$;
