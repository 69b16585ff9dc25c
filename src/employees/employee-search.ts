/**
 * The employees search condition, on exactly the expression of the employees_search_trgm_idx index
 * so substring searches use it. The parameter is the LIKE-escaped term; chr(1) keeps a match inside
 * one field.
 */
export function employeeSearchCondition(alias: string, parameter: string): string {
  return (
    `lower(${alias}.first_name || ' ' || ${alias}.last_name || chr(1) || ${alias}.business_email || chr(1) || ${alias}.personnel_number)` +
    ` LIKE '%' || lower(${parameter}) || '%'`
  );
}

/** The condition for a TypeORM query builder on the `employee` alias with a `:search` parameter. */
export const EMPLOYEE_SEARCH_CONDITION = employeeSearchCondition('employee', ':search');
