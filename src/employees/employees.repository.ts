import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ColumnMap } from '../database/column-map';
import { Database, Statement } from '../database/database';
import { escapeLikePattern } from '../database/like-pattern';
import { SqlConditions } from '../database/sql-conditions';
import { NotFoundError } from '../errors/errors';
import { GuardedRow, mapConstraintErrors, takenError, writtenIds } from '../errors/postgres-errors';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../pagination/cursor';
import { RatingType } from '../skills/rating-types';
import { toDateOrNull } from '../validation/iso-date-time';
import { ChangesReadWithLock, changesSinceColumn, RecordedChange } from '../versions/resource-events.repository';
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
 * The employees table's written columns, its organisation aside: writes bind one array per column, and the
 * changeable columns are what a PATCH or bulk item may change. insert_employees (sql/insert-employees.sql) takes
 * its arrays in this order.
 */
const WRITTEN_COLUMNS = new ColumnMap<EmployeeFields>([
  { property: 'id', column: 'id', type: 'uuid' },
  { property: 'personnelNumber', column: 'personnel_number', type: 'text', changeable: true },
  { property: 'firstName', column: 'first_name', type: 'text', changeable: true },
  { property: 'lastName', column: 'last_name', type: 'text', changeable: true },
  { property: 'businessEmail', column: 'business_email', type: 'text', changeable: true },
  { property: 'title', column: 'title', type: 'text', changeable: true },
  { property: 'gender', column: 'gender', type: 'text', changeable: true },
  { property: 'departmentId', column: 'department_id', type: 'text', changeable: true },
  { property: 'hiredAt', column: 'hired_at', type: 'timestamptz', changeable: true },
  { property: 'leftAt', column: 'left_at', type: 'timestamptz', changeable: true },
  { property: 'isHRTeamMember', column: 'is_hr_team_member', type: 'boolean', changeable: true },
  { property: 'createdAt', column: 'created_at', type: 'timestamptz' },
  { property: 'updatedAt', column: 'updated_at', type: 'timestamptz' },
]);

/**
 * Every column read, its organisation aside: selects read rows under EmployeeFields' names (so they map with
 * toEmployeeResponse without TypeORM's entity hydration; pg already returns timestamptz as Date). The version is
 * read, never written: a trigger moves it (migration 1763766100000).
 */
export const EMPLOYEE_COLUMNS = new ColumnMap<EmployeeFields>([
  ...WRITTEN_COLUMNS.columns,
  { property: 'version', column: 'version', type: 'integer' },
]);

/** What a PATCH writes beside updated_at. */
const CHANGEABLE = WRITTEN_COLUMNS.changeable();

/**
 * The no-op-aware UPDATEs of one and of many rows (ColumnMap.updateOne, updateMany), guarded by the unique keys
 * in the order of their indexes (migration 1763762500000).
 */
const GUARDED = WRITTEN_COLUMNS.guardedBy([
  { constraint: 'employees_personnel_number_key', column: 'personnel_number' },
  { constraint: 'employees_business_email_key', column: 'business_email', lower: true },
]);
const UPDATE_ONE = GUARDED.updateOne('employees');
const UPDATE_MANY = GUARDED.updateMany('employees');

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

/**
 * The SELECT … FOR UPDATE of a PATCH, DELETE or erase, with `extra` beside the columns: raw SQL under Employee's
 * names, as the other reads here (TypeORM's query builder and entity hydration cost a PATCH 14 % of its
 * instructions, issue 51). The bench's raw baseline sends the same statement.
 */
export function employeeLockStatement(
  organisationId: string,
  id: string,
  extra?: { column: string; value: unknown },
): Statement {
  const columns = [`employee.organisation_id AS "organisationId"`, EMPLOYEE_COLUMNS.select('employee')];
  if (extra) columns.push(extra.column);
  return {
    text: `SELECT ${columns.join(', ')}
             FROM employees employee
            WHERE employee.organisation_id = $1 AND employee.id = $2
              FOR UPDATE OF employee`,
    values: extra ? [organisationId, id, extra.value] : [organisationId, id],
  };
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
        `SELECT ${EMPLOYEE_COLUMNS.select('e')}
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
   * statement is the function `employee_detail_v2` (sql/employee-detail-v2.sql), whose plan the database keeps.
   */
  async findDetail(organisationId: string, id: string, manager?: EntityManager): Promise<EmployeeDetailRecord | null> {
    const rows = await this.database
      .manager(manager)
      .query<DetailRow[]>('SELECT * FROM employee_detail_v2($1, $2)', [organisationId, id]);
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
    const [employee] = await this.lockRow<Employee>(organisationId, id, manager);
    if (!employee) throw new NotFoundError('Employee');
    return employee;
  }

  /**
   * findForUpdate for a Base-Version merge, with the changes recorded after `since` read in the same statement
   * (ResourceEventsRepository.changesSinceColumn), so the merge costs no statement of its own.
   */
  async findForMerge(
    organisationId: string,
    id: string,
    since: number,
    manager?: EntityManager,
  ): Promise<{ employee: Employee; readWithLock: ChangesReadWithLock }> {
    const [row] = await this.lockRow<Employee & { recorded: RecordedChange[] }>(organisationId, id, manager, {
      column: `${changesSinceColumn('employee', '$3')} AS recorded`,
      value: since,
    });
    if (!row) throw new NotFoundError('Employee');
    const { recorded, ...employee } = row;
    return { employee, readWithLock: { since, recorded } };
  }

  /** The row locked and read (employeeLockStatement), with `extra` beside its columns. */
  private lockRow<Row>(
    organisationId: string,
    id: string,
    manager?: EntityManager,
    extra?: { column: string; value: unknown },
  ): Promise<Row[]> {
    const { text, values } = employeeLockStatement(organisationId, id, extra);
    return this.database.manager(manager).query<Row[]>(text, values);
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
    const values = [organisationId, employee.id, ...CHANGEABLE.values(employee), updatedAt];
    const written = this.database.manager(manager).query<GuardedRow[]>(UPDATE_ONE, values);
    // The guard finds a taken value first; the index only sees one written at the same moment, uncommitted.
    const rows = await mapConstraintErrors(written, { unique: EMPLOYEE_UNIQUE_MESSAGES });
    return writtenIds(rows, EMPLOYEE_UNIQUE_MESSAGES).length > 0;
  }

  /** The organisation's employees with these personnel numbers, locked until the transaction ends. */
  async lockByPersonnelNumbers(
    organisationId: string,
    personnelNumbers: string[],
    manager?: EntityManager,
  ): Promise<Employee[]> {
    if (personnelNumbers.length === 0) return [];
    const rows = await this.database.manager(manager).query<EmployeeFields[]>(
      `SELECT ${EMPLOYEE_COLUMNS.select('e')} FROM employees e
        WHERE e.organisation_id = $1 AND e.personnel_number = ANY ($2::text[])
          FOR UPDATE`,
      [organisationId, personnelNumbers],
    );
    return rows.map((row) => ({ ...row, organisationId }));
  }

  /**
   * insert for many employees in one statement, the function `insert_employees` (sql/insert-employees.sql), whose
   * plan the database keeps; one duplicate fails them all (409, as insert): the function writes around it and
   * names its index, and the error rolls back what it wrote.
   */
  async insertMany(organisationId: string, employees: Employee[], manager?: EntityManager): Promise<void> {
    if (employees.length === 0) return;
    const [{ conflict }] = await this.database
      .manager(manager)
      .query<{ conflict: string | null }[]>(
        `SELECT insert_employees($1, ${WRITTEN_COLUMNS.placeholders(2)}) AS conflict`,
        [organisationId, ...WRITTEN_COLUMNS.arrays(employees)],
      );
    if (conflict) throw takenError(conflict, EMPLOYEE_UNIQUE_MESSAGES);
  }

  /**
   * update for many employees in one statement; answers the ids it wrote (not those whose values all equal the
   * stored ones, by update's rule). One duplicate fails them all.
   */
  async updateMany(organisationId: string, employees: Employee[], manager?: EntityManager): Promise<string[]> {
    if (employees.length === 0) return [];
    const values = [organisationId, ...WRITTEN_COLUMNS.arrays(employees)];
    const written = this.database.manager(manager).query<GuardedRow[]>(UPDATE_MANY, values);
    return writtenIds(
      await mapConstraintErrors(written, { unique: EMPLOYEE_UNIQUE_MESSAGES }),
      EMPLOYEE_UNIQUE_MESSAGES,
    );
  }

  async deactivate(organisationId: string, id: string, at: Date, manager?: EntityManager): Promise<void> {
    await this.database.manager(manager).update(Employee, { organisationId, id }, { leftAt: at, updatedAt: at });
  }

  /**
   * Erasure: deletes the employee's row (its search row goes with it), so its id is unknown from now on and its
   * personnelNumber and businessEmail are free.
   */
  async erase(organisationId: string, id: string, manager: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`DELETE FROM employees WHERE organisation_id = $1 AND id = $2`, [organisationId, id]);
  }

  /** The ids of the organisation's employees who left before `cutoff`, earliest leaver first. */
  async leftBefore(organisationId: string, cutoff: Date, manager?: EntityManager): Promise<string[]> {
    const rows = await this.database
      .manager(manager)
      .query<{ id: string }[]>(
        `SELECT id FROM employees WHERE organisation_id = $1 AND left_at < $2 ORDER BY left_at, id`,
        [organisationId, cutoff],
      );
    return rows.map((row) => row.id);
  }

  /**
   * Up to `limit` employees of any organisation who left before `cutoff` (employees_leavers_idx), locked: the
   * retention job's; one a request is changing meanwhile waits for a later run.
   */
  async leftBeforeInEveryOrganisation(
    cutoff: Date,
    limit: number,
    manager?: EntityManager,
  ): Promise<Array<{ organisationId: string; id: string }>> {
    return this.database.manager(manager).query(
      `SELECT organisation_id AS "organisationId", id FROM employees
        WHERE left_at < $1 ORDER BY left_at, id LIMIT $2
          FOR UPDATE SKIP LOCKED`,
      [cutoff, limit],
    );
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
