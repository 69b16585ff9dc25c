/**
 * The employees columns under the Employee entity's property names, so a raw query's rows map with
 * toEmployeeResponse without TypeORM's entity hydration (pg already returns timestamptz as Date).
 */
export function employeeColumns(alias: string): string {
  return [
    `${alias}.id`,
    `${alias}.personnel_number AS "personnelNumber"`,
    `${alias}.first_name AS "firstName"`,
    `${alias}.last_name AS "lastName"`,
    `${alias}.business_email AS "businessEmail"`,
    `${alias}.title`,
    `${alias}.gender`,
    `${alias}.department_id AS "departmentId"`,
    `${alias}.hired_at AS "hiredAt"`,
    `${alias}.left_at AS "leftAt"`,
    `${alias}.is_hr_team_member AS "isHRTeamMember"`,
  ].join(', ');
}
