import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../common/cursor';
import { NotFoundError } from '../common/errors';
import { toDateOrNull } from '../common/iso-date-time';
import { bySkillName, latestRatingOf } from '../common/latest-rating';
import { escapeLikePattern } from '../common/like-pattern';
import { mapConstraintErrors } from '../common/postgres-errors';
import { RatingType } from '../common/rating-types';
import { SqlConditions } from '../common/sql-conditions';
import { Database } from '../database/database';
import { EmployeeDetailRecord, EmployeeFields } from './dto/employee.response';
import { ListEmployeesQuery } from './dto/list-employees.query';
import { Employee } from './entities/employee.entity';

const UNIQUE_MESSAGES = {
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
function employeeColumns(alias: string): string {
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
   * skill, or one row with null skill columns when it has none. Null when there is no such employee.
   */
  async findDetail(organisationId: string, id: string, manager?: EntityManager): Promise<EmployeeDetailRecord | null> {
    const rows = await this.database.manager(manager).query<DetailRow[]>(
      `SELECT ${employeeColumns('e')}, sk."personSkillId", sk."skillId", sk."skillName", sk.score, sk."ratingType",
              sk."ratedAt"
         FROM employees e
         LEFT JOIN LATERAL (
              SELECT ps.id AS "personSkillId", s.id AS "skillId", s.name AS "skillName",
                     latest.score, latest.rating_type AS "ratingType", latest.created_at AS "ratedAt"
                FROM person_skills ps
                JOIN skills s ON s.id = ps.skill_id
                LEFT JOIN LATERAL (${latestRatingOf('ps', 'r.score, r.rating_type, r.created_at')}) latest ON true
               WHERE ps.organisation_id = e.organisation_id AND ps.employee_id = e.id
         ) sk ON true
        WHERE e.organisation_id = $1 AND e.id = $2
        ORDER BY ${bySkillName('sk."skillName"', 'sk."skillId"')}`,
      [organisationId, id],
    );
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
    await mapConstraintErrors(this.database.manager(manager).insert(Employee, { ...employee, organisationId }), {
      unique: UNIQUE_MESSAGES,
    });
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
            AND (personnel_number, first_name, last_name, business_email, title, gender, department_id, hired_at,
                 left_at, is_hr_team_member)
                IS DISTINCT FROM ($3::varchar, $4::varchar, $5::varchar, $6::varchar, $7::varchar, $8::varchar,
                                  $9::varchar, $10::timestamptz, $11::timestamptz, $12::boolean)
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
      { unique: UNIQUE_MESSAGES },
    );
    return rows.length > 0;
  }

  async deactivate(organisationId: string, id: string, at: Date, manager?: EntityManager): Promise<void> {
    await this.database.manager(manager).update(Employee, { organisationId, id }, { leftAt: at, updatedAt: at });
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
