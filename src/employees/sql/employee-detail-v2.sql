-- GET /employees/{id} (EmployeesRepository.findDetail): employee_detail (employee-detail.sql) with the employee's
-- version (issue 47). A function because PL/pgSQL keeps its plan for the session (docs/adr/0001). One row per
-- skill of the employee, in the one order of skills by name, each with the latest rating its link keeps; one row
-- with null skill columns when it has none; no row when the organisation has no such employee. The columns carry
-- EmployeeFields' names.
CREATE FUNCTION employee_detail_v2(organisation uuid, employee uuid)
  RETURNS TABLE (id uuid, "personnelNumber" varchar, "firstName" varchar, "lastName" varchar,
                 "businessEmail" varchar, title varchar, gender varchar, "departmentId" varchar,
                 "hiredAt" timestamptz, "leftAt" timestamptz, "isHRTeamMember" boolean,
                 "createdAt" timestamptz, "updatedAt" timestamptz, version integer, "personSkillId" uuid,
                 "skillId" uuid, "skillName" varchar, score integer, "ratingType" varchar, "ratedAt" timestamptz)
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT e.id, e.personnel_number, e.first_name, e.last_name, e.business_email, e.title, e.gender,
         e.department_id, e.hired_at, e.left_at, e.is_hr_team_member, e.created_at, e.updated_at, e.version,
         sk.person_skill_id, sk.skill_id, sk.skill_name, sk.score, sk.rating_type, sk.rated_at
    FROM employees e
    LEFT JOIN LATERAL (
         SELECT ps.id AS person_skill_id, s.id AS skill_id, s.name AS skill_name,
                latest.score, latest.rating_type, latest.created_at AS rated_at
           FROM person_skills ps
           JOIN skills s ON s.id = ps.skill_id
           LEFT JOIN ratings latest ON latest.id = ps.latest_rating_id
          WHERE ps.organisation_id = e.organisation_id AND ps.employee_id = e.id
    ) sk ON true
   WHERE e.organisation_id = employee_detail_v2.organisation AND e.id = employee_detail_v2.employee
   ORDER BY skill_name_order(sk.skill_name), sk.skill_id;
END
$$;
