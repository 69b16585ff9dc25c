-- The insert of employees (POST /employees one, bulk upsert many; EmployeesRepository.insertMany). A function
-- because PL/pgSQL keeps its plan for the session, where the same INSERT … SELECT FROM unnest sent by the API is
-- parsed and planned at every write (unnamed statements, as PgBouncer in transaction mode needs): ~0.12 ms of
-- the database's CPU per call (docs/adr/0001). The arrays are the employees' columns, one element per employee,
-- in the order of EMPLOYEE_COLUMNS (employees.repository.ts). A duplicate personnel number or e-mail is not
-- written, and no unique violation is raised (PostgreSQL would log it with the taken value, issue 41): the
-- answer is the name of the index the first employee not written would have broken, in the order PostgreSQL
-- checks them, or NULL when every employee is written. The caller then fails them all, rolling back the others.
CREATE OR REPLACE FUNCTION insert_employees(organisation uuid, ids uuid[], personnel_numbers text[], first_names text[],
                                            last_names text[], business_emails text[], titles text[], genders text[],
                                            department_ids text[], hired_ats timestamptz[], left_ats timestamptz[],
                                            hr_team_members boolean[], created_ats timestamptz[],
                                            updated_ats timestamptz[])
  RETURNS text
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  written bigint;
  taken text;
BEGIN
  INSERT INTO employees (id, organisation_id, personnel_number, first_name, last_name, business_email, title,
                         gender, department_id, hired_at, left_at, is_hr_team_member, created_at, updated_at)
  SELECT v.id, organisation, v.personnel_number, v.first_name, v.last_name, v.business_email, v.title,
         v.gender, v.department_id, v.hired_at, v.left_at, v.is_hr_team_member, v.created_at, v.updated_at
    FROM unnest(ids, personnel_numbers, first_names, last_names, business_emails, titles, genders,
                department_ids, hired_ats, left_ats, hr_team_members, created_ats, updated_ats)
      AS v (id, personnel_number, first_name, last_name, business_email, title, gender, department_id,
            hired_at, left_at, is_hr_team_member, created_at, updated_at)
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS written = ROW_COUNT;
  IF written = cardinality(ids) THEN
    RETURN NULL;
  END IF;
  -- The rows written above are visible here: a duplicate within the arrays finds the earlier employee.
  SELECT CASE
           WHEN EXISTS (SELECT FROM employees e
                         WHERE e.organisation_id = organisation AND e.personnel_number = v.personnel_number)
             THEN 'employees_personnel_number_key'
           WHEN EXISTS (SELECT FROM employees e
                         WHERE e.organisation_id = organisation AND lower(e.business_email) = lower(v.business_email))
             THEN 'employees_business_email_key'
           ELSE 'employees_pkey'
         END
    INTO taken
    FROM unnest(ids, personnel_numbers, business_emails) WITH ORDINALITY AS v (id, personnel_number, business_email, position)
   WHERE NOT EXISTS (SELECT FROM employees e WHERE e.id = v.id AND e.organisation_id = organisation)
   ORDER BY v.position
   LIMIT 1;
  RETURN taken;
END
$$;
