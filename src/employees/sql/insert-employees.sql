-- The insert of employees (POST /employees one, bulk upsert many; EmployeesRepository.insertMany). A function
-- because PL/pgSQL keeps its plan for the session, where the same INSERT … SELECT FROM unnest sent by the API is
-- parsed and planned at every write (unnamed statements, as PgBouncer in transaction mode needs): ~0.12 ms of
-- the database's CPU per call (docs/adr/0001). The arrays are the employees' columns, one element per employee,
-- in the order of EMPLOYEE_COLUMNS (employees.repository.ts); a duplicate personnel number or e-mail fails them
-- all, with the constraint's name.
CREATE OR REPLACE FUNCTION insert_employees(organisation uuid, ids uuid[], personnel_numbers text[], first_names text[],
                                            last_names text[], business_emails text[], titles text[], genders text[],
                                            department_ids text[], hired_ats timestamptz[], left_ats timestamptz[],
                                            hr_team_members boolean[], created_ats timestamptz[],
                                            updated_ats timestamptz[])
  RETURNS void
  LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  INSERT INTO employees (id, organisation_id, personnel_number, first_name, last_name, business_email, title,
                         gender, department_id, hired_at, left_at, is_hr_team_member, created_at, updated_at)
  SELECT v.id, organisation, v.personnel_number, v.first_name, v.last_name, v.business_email, v.title,
         v.gender, v.department_id, v.hired_at, v.left_at, v.is_hr_team_member, v.created_at, v.updated_at
    FROM unnest(ids, personnel_numbers, first_names, last_names, business_emails, titles, genders,
                department_ids, hired_ats, left_ats, hr_team_members, created_ats, updated_ats)
      AS v (id, personnel_number, first_name, last_name, business_email, title, gender, department_id,
            hired_at, left_at, is_hr_team_member, created_at, updated_at);
END
$$;
