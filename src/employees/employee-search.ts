/**
 * The employees search condition, on exactly the expression of the employees_search_trgm_idx index
 * so substring searches use it. `:search` is the LIKE-escaped term; chr(1) keeps a match inside one
 * field. Columns are of the `employee` alias.
 */
export const EMPLOYEE_SEARCH_CONDITION =
  `lower(employee.first_name || ' ' || employee.last_name || chr(1) || employee.business_email || chr(1) || employee.personnel_number)` +
  ` LIKE '%' || lower(:search) || '%'`;
