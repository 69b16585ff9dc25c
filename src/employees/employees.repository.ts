import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { escapeLikePattern } from '../database/like-pattern';
import { SqlConditions } from '../database/sql-conditions';
import { NotFoundError } from '../errors/errors';
import { mapConstraintErrors } from '../errors/postgres-errors';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../pagination/cursor';
import { RatingType } from '../skills/rating-types';
import { toDateOrNull } from '../validation/iso-date-time';
import { EmployeeDetailRecord, EmployeeFields } from './dto/employee.response';
import { ListEmployeesQuery } from './dto/list-employees.query';
import { Employee } from './entities/employee.entity';

export const EMPLOYEE_UNIQUE_MESSAGES = {
  employees_personnel_number_key: 'An employee with this personnelNumber already exists',
  employees_business_email_key: 'An employee with this businessEmail already exists',
};

interface DetailRow extends EmployeeFields {
  personSkillId: string | null;
  skillId: string | null;
  skillName: string | null;
  score: number | null;
  ratingType: RatingType | null;
  ratedAt: Date | null;
}

/**
 * The employees columns under the Employee entity's property names, so raw rows map with
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
    `${alias}.created_at AS "createdAt"`,
    `${alias}.updated_at AS "updatedAt"`,
  ].join(', ');
}

/** The rows a list filters (aliased `f`), the column of their employee id, and the conditions. */
interface ListFilters {
  from: string;
  id: string;
  where: SqlConditions;
}

/** A list without a search filters employees itself, on the indexes of each filter's order. */
function employeeFilters(organisationId: string, query: ListEmployeesQuery, updatedSince?: Date | null): ListFilters {
  const where = new SqlConditions().and('f.organisation_id = ?', organisationId);
  if (query.departmentId !== undefined) where.and('f.department_id = ?', query.departmentId);
  if (query.isActive !== undefined) where.and(query.isActive ? 'f.left_at IS NULL' : 'f.left_at IS NOT NULL');
  if (updatedSince) where.and('f.updated_at >= ?', updatedSince);
  return { from: 'employees f', id: 'f.id', where };
}

/**
 * A search filters employee_search (migration 1763763300000): its narrow rows, kept in step with employees by
 * triggers in the writing transaction and lying together per organisation, carry the search text and every
 * other filtered and ordered column, so the trigram recheck of an exact count reads a few pages of one tenant.
 */
function searchFilters(
  organisationId: string,
  search: string,
  query: ListEmployeesQuery,
  updatedSince?: Date | null,
): ListFilters {
  const where = new SqlConditions()
    .and('f.organisation_id = ?', organisationId)
    .and(`f.search_text LIKE '%' || lower(?) || '%'`, escapeLikePattern(search));
  if (query.departmentId !== undefined) where.and('f.department_id = ?', query.departmentId);
  if (query.isActive !== undefined) where.and(query.isActive ? 'f.active' : 'NOT f.active');
  if (updatedSince) where.and('f.updated_at >= ?', updatedSince);
  return { from: 'employee_search f', id: 'f.employee_id', where };
}

/** The columns a PATCH or bulk item may change: an update whose values all equal them writes nothing. */
const CHANGEABLE_COLUMNS = [
  'personnel_number',
  'first_name',
  'last_name',
  'business_email',
  'title',
  'gender',
  'department_id',
  'hired_at',
  'left_at',
  'is_hr_team_member',
];

// update's parameters and the unnest rows of updateMany, in CHANGEABLE_COLUMNS' order.
const UPDATE_VALUES = `($3::varchar, $4::varchar, $5::varchar, $6::varchar, $7::varchar, $8::varchar, $9::varchar,
  $10::timestamptz, $11::timestamptz, $12::boolean)`;
const CHANGEABLE_VALUES = `(v.personnel_number, v.first_name, v.last_name, v.business_email, v.title, v.gender,
  v.department_id, v.hired_at, v.left_at, v.is_hr_team_member)`;

/** The no-op rule, in the UPDATE's WHERE so it costs no round trip: the stored row differs from `values`. */
function differs(table: string, values: string): string {
  return `(${CHANGEABLE_COLUMNS.map((column) => `${table}.${column}`).join(', ')}) IS DISTINCT FROM ${values}`;
}

/** Employees as rows of parameter arrays ($2..$14 in employeeArrays' order), for updateMany's one statement. */
const UNNEST_EMPLOYEES = `unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::text[], $10::timestamptz[], $11::timestamptz[], $12::boolean[], $13::timestamptz[], $14::timestamptz[])
    AS v(id, personnel_number, first_name, last_name, business_email, title, gender, department_id, hired_at,
         left_at, is_hr_team_member, created_at, updated_at)`;

function employeeArrays(employees: Employee[]): unknown[][] {
  const column = <T>(value: (employee: Employee) => T) => employees.map(value);
  return [
    column((e) => e.id),
    column((e) => e.personnelNumber),
    column((e) => e.firstName),
    column((e) => e.lastName),
    column((e) => e.businessEmail),
    column((e) => e.title),
    column((e) => e.gender),
    column((e) => e.departmentId),
    column((e) => e.hiredAt),
    column((e) => e.leftAt),
    column((e) => e.isHRTeamMember),
    column((e) => e.createdAt),
    column((e) => e.updatedAt),
  ];
}

/** All SQL of employees. */
@Injectable()
export class EmployeesRepository {
  constructor(private readonly database: Database) {}

  /**
   * One window of GET /employees (page or cursor, see ListCursors) and, in page mode, its exact total, in raw
   * SQL. The page reads the ids of the requested window first (an index-only scan of employees_list_idx when
   * unfiltered, so a deep OFFSET skips index entries rather than heap rows; a cursor starts its range scan at
   * its key) and then only those rows. A search reads its ids and its count from employee_search instead (see
   * searchFilters). Without a transaction, page and total run concurrently on two pool connections.
   */
  async findPage(
    organisationId: string,
    query: ListEmployeesQuery,
    window: PageWindow,
    manager?: EntityManager,
  ): Promise<ListRows<EmployeeFields>> {
    const updatedSince = toDateOrNull(query.updatedSince);
    const filters =
      query.search === undefined
        ? employeeFilters(organisationId, query, updatedSince)
        : searchFilters(organisationId, query.search, query, updatedSince);
    const { from, id, where } = filters;
    // Oldest first; a delta sync (updatedSince) reads the oldest change first, on employees_updated_idx.
    const orderedBy = updatedSince ? 'updated_at' : 'created_at';
    const order: ListOrder<EmployeeFields> = {
      columns: [`f.${orderedBy}`, id],
      descending: false,
      keyOf: (employee) => [updatedSince ? employee.updatedAt : employee.createdAt, employee.id],
    };
    // Only a cursor window has a keyset, and only a page window is counted: the count never sees the keyset.
    where.after(order.columns, order.descending, window.after);
    const page = where.page(window.fetch, window.offset);
    const onlyCounted = query.search === undefined && query.departmentId === undefined && !updatedSince;
    const [rows, total] = await Promise.all([
      this.database.manager(manager).query<EmployeeFields[]>(
        `SELECT ${employeeColumns('e')}
           FROM (SELECT ${id} AS id FROM ${from} WHERE ${where.sql} ORDER BY ${orderByColumns(order)} ${page.sql}) page
           JOIN employees e ON e.id = page.id
          ORDER BY e.${orderedBy}, e.id`,
        page.parameters,
      ),
      !window.counted
        ? null
        : onlyCounted
          ? this.countFromCounter(organisationId, query.isActive, manager)
          : this.count(filters, manager),
    ]);
    return { rows, order, total };
  }

  /**
   * The employee joined to its skills (each with its latest rating), in one round trip: one row per
   * skill, or one row with null skill columns when it has none. Null when there is no such employee. The
   * statement is the function `employee_detail` (migration 1763764100000), whose plan the database keeps.
   */
  async findDetail(organisationId: string, id: string, manager?: EntityManager): Promise<EmployeeDetailRecord | null> {
    const rows = await this.database
      .manager(manager)
      .query<DetailRow[]>('SELECT * FROM employee_detail($1, $2)', [organisationId, id]);
    if (rows.length === 0) return null;
    return {
      employee: rows[0],
      skills: rows
        .filter((row) => row.personSkillId !== null)
        .map((row) => ({
          personSkillId: row.personSkillId!,
          skillId: row.skillId!,
          skillName: row.skillName!,
          latestRating:
            row.score === null ? null : { score: row.score, ratingType: row.ratingType!, createdAt: row.ratedAt! },
        })),
    };
  }

  /** The employee, locked until the transaction ends, or 404. */
  async findForUpdate(organisationId: string, id: string, manager?: EntityManager): Promise<Employee> {
    const employee = await this.database
      .manager(manager)
      .createQueryBuilder(Employee, 'employee')
      .where('employee.organisation_id = :organisationId AND employee.id = :id', { organisationId, id })
      .setLock('pessimistic_write')
      .getOne();
    if (!employee) throw new NotFoundError('Employee');
    return employee;
  }

  /** 404 unless the organisation has this employee. */
  async assertExists(organisationId: string, id: string, manager?: EntityManager): Promise<void> {
    const rows = await this.database
      .manager(manager)
      .query<unknown[]>(`SELECT 1 FROM employees WHERE organisation_id = $1 AND id = $2`, [organisationId, id]);
    if (rows.length === 0) throw new NotFoundError('Employee');
  }

  /** The id and personnelNumber of the organisation's employees with these ids or personnel numbers. */
  async findReferences(
    organisationId: string,
    ids: string[],
    personnelNumbers: string[],
    manager?: EntityManager,
  ): Promise<{ id: string; personnelNumber: string }[]> {
    if (ids.length === 0 && personnelNumbers.length === 0) return [];
    return this.database.manager(manager).query(
      `SELECT id, personnel_number AS "personnelNumber" FROM employees
        WHERE organisation_id = $1 AND (id = ANY ($2::uuid[]) OR personnel_number = ANY ($3::text[]))`,
      [organisationId, ids, personnelNumbers],
    );
  }

  /** The ids of the organisation's employees with these personnelNumbers, by personnelNumber. */
  async idsByPersonnelNumber(
    organisationId: string,
    personnelNumbers: string[],
    manager?: EntityManager,
  ): Promise<Map<string, string>> {
    if (personnelNumbers.length === 0) return new Map();
    const rows = await this.database.manager(manager).query<Array<{ id: string; personnelNumber: string }>>(
      `SELECT id, personnel_number AS "personnelNumber"
         FROM employees
        WHERE organisation_id = $1 AND personnel_number = ANY($2::varchar[])`,
      [organisationId, personnelNumbers],
    );
    return new Map(rows.map((row) => [row.personnelNumber, row.id]));
  }

  /** A personnelNumber or businessEmail (in any case) the organisation already has is 409. */
  async insert(organisationId: string, employee: Omit<Employee, 'organisationId'>, manager?: EntityManager) {
    // insertMany's one statement: TypeORM's insert would build its SQL anew for every request.
    await this.insertMany(organisationId, [{ ...employee, organisationId }], manager);
  }

  /**
   * Writes the employee's fields and `updatedAt`, unless they all equal the stored ones: then nothing is
   * written and false is answered (the comparison is part of the UPDATE, so it costs no extra round trip).
   * Another employee's personnelNumber or businessEmail is 409.
   */
  async update(organisationId: string, employee: Employee, updatedAt: Date, manager?: EntityManager): Promise<boolean> {
    const [rows] = await mapConstraintErrors(
      this.database.manager(manager).query<[unknown[], number]>(
        `UPDATE employees
            SET personnel_number = $3, first_name = $4, last_name = $5, business_email = $6, title = $7, gender = $8,
                department_id = $9, hired_at = $10, left_at = $11, is_hr_team_member = $12, updated_at = $13
          WHERE organisation_id = $1 AND id = $2
            AND ${differs('employees', UPDATE_VALUES)}
          RETURNING id`,
        [
          organisationId,
          employee.id,
          employee.personnelNumber,
          employee.firstName,
          employee.lastName,
          employee.businessEmail,
          employee.title,
          employee.gender,
          employee.departmentId,
          employee.hiredAt,
          employee.leftAt,
          employee.isHRTeamMember,
          updatedAt,
        ],
      ),
      { unique: EMPLOYEE_UNIQUE_MESSAGES },
    );
    return rows.length > 0;
  }

  /** The organisation's employees with these personnel numbers, locked until the transaction ends. */
  async lockByPersonnelNumbers(
    organisationId: string,
    personnelNumbers: string[],
    manager?: EntityManager,
  ): Promise<Employee[]> {
    if (personnelNumbers.length === 0) return [];
    const rows = await this.database.manager(manager).query<EmployeeFields[]>(
      `SELECT ${employeeColumns('e')} FROM employees e
        WHERE e.organisation_id = $1 AND e.personnel_number = ANY ($2::text[])
          FOR UPDATE`,
      [organisationId, personnelNumbers],
    );
    return rows.map((row) => ({ ...row, organisationId }));
  }

  /**
   * insert for many employees in one statement, the function `insert_employees` (migration 1763764200000), whose
   * plan the database keeps; one duplicate fails them all (409, as insert).
   */
  async insertMany(organisationId: string, employees: Employee[], manager?: EntityManager): Promise<void> {
    if (employees.length === 0) return;
    await mapConstraintErrors(
      this.database
        .manager(manager)
        .query('SELECT insert_employees($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)', [
          organisationId,
          ...employeeArrays(employees),
        ]),
      { unique: EMPLOYEE_UNIQUE_MESSAGES },
    );
  }

  /**
   * update for many employees in one statement; answers the ids it wrote (not those whose values all equal the
   * stored ones, by update's rule). One duplicate fails them all.
   */
  async updateMany(organisationId: string, employees: Employee[], manager?: EntityManager): Promise<string[]> {
    if (employees.length === 0) return [];
    const [rows] = await mapConstraintErrors(
      this.database.manager(manager).query<[{ id: string }[], number]>(
        `UPDATE employees e
            SET personnel_number = v.personnel_number, first_name = v.first_name, last_name = v.last_name,
                business_email = v.business_email, title = v.title, gender = v.gender,
                department_id = v.department_id, hired_at = v.hired_at, left_at = v.left_at,
                is_hr_team_member = v.is_hr_team_member, updated_at = v.updated_at
           FROM ${UNNEST_EMPLOYEES}
          WHERE e.organisation_id = $1 AND e.id = v.id
            AND ${differs('e', CHANGEABLE_VALUES)}
          RETURNING e.id`,
        [organisationId, ...employeeArrays(employees)],
      ),
      { unique: EMPLOYEE_UNIQUE_MESSAGES },
    );
    return rows.map((row) => row.id);
  }

  async deactivate(organisationId: string, id: string, at: Date, manager?: EntityManager): Promise<void> {
    await this.database.manager(manager).update(Employee, { organisationId, id }, { leftAt: at, updatedAt: at });
  }

  /** How many employees the organisation has (only active or deactivated ones with isActive), from the kept counts. */
  async countAll(organisationId: string, isActive?: boolean, manager?: EntityManager): Promise<number> {
    return this.countFromCounter(organisationId, isActive, manager);
  }

  /**
   * The exact total of an unfiltered or isActive-only list: organisation_employee_counts is kept by triggers
   * in every employee write's transaction, spread over a few slot rows per organisation so concurrent writes
   * do not queue on one row; their sum (one range of the primary key) is the count. No row yet: the
   * organisation never had an employee.
   */
  private async countFromCounter(organisationId: string, isActive: boolean | undefined, manager?: EntityManager) {
    const [row] = await this.database.manager(manager).query<{ total: number }[]>(
      `SELECT coalesce(sum(CASE WHEN $2::boolean IS NULL THEN total WHEN $2 THEN active ELSE total - active END), 0)::int
              AS total
         FROM organisation_employee_counts WHERE organisation_id = $1`,
      [organisationId, isActive ?? null],
    );
    return row.total;
  }

  private async count({ from, where }: ListFilters, manager?: EntityManager): Promise<number> {
    const [row] = await this.database
      .manager(manager)
      .query<{ total: number }[]>(`SELECT count(*)::int AS total FROM ${from} WHERE ${where.sql}`, where.parameters);
    return row.total;
  }
}
