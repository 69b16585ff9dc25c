import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { SqlConditions } from '../database/sql-conditions';
import { EmployeeFields } from '../employees/dto/employee.response';
import { EMPLOYEE_COLUMNS } from '../employees/employees.repository';
import { KeyValue, ListOrder, ListRows, PageWindow } from '../pagination/cursor';
import { SkillEmployeeRecord } from './dto/skill-employee.response';
import { LATEST_RATING_COLUMNS, latestRatingOf, LatestRatingRow } from './ratings.repository';

/** Which of a skill's employees GET /skills/{id}/employees shows. */
export interface SkillEmployeeFilters {
  minScore?: number;
  isActive?: boolean;
}

type SkillEmployeeRow = EmployeeFields & LatestRatingRow & { personSkillId: string };

/**
 * GET /skills/{id}/employees: latest score highest first, never rated last, then employee id. Its directions
 * differ and the score may be null, so afterSkillEmployee writes its keyset rather than SqlConditions.after.
 */
const SKILL_EMPLOYEE_ORDER: ListOrder<SkillEmployeeRecord> = {
  columns: ['ps.latest_score', 'ps.employee_id'],
  descending: true,
  keyOf: (record) => [record.latestRating?.score ?? null, record.employee.id],
};

/** The rows after the key [score, employeeId] in SKILL_EMPLOYEE_ORDER. */
function afterSkillEmployee(where: SqlConditions, [score, employeeId]: KeyValue[]): void {
  if (score === null) {
    where.and('ps.latest_score IS NULL AND ps.employee_id > ?', employeeId);
  } else {
    where.and(
      '(ps.latest_score < ? OR (ps.latest_score = ? AND ps.employee_id > ?) OR ps.latest_score IS NULL)',
      score,
      score,
      employeeId,
    );
  }
}

/**
 * The read model of GET /skills/{id}/employees: the employees linked to a skill, ranked by their kept latest
 * score (person_skills, written by RatingsRepository).
 */
@Injectable()
export class SkillEmployeesRepository {
  constructor(private readonly database: Database) {}

  /**
   * One page of the employees linked to the skill, latest score highest first (never rated last), then
   * employee id, and their exact total; null when the organisation has no such skill. The page walks
   * person_skills_skill_score_idx in that order, so it reads only the rows it shows (and those the
   * filters skip); page and total run concurrently outside a transaction.
   */
  async findPage(
    organisationId: string,
    skillId: string,
    filters: SkillEmployeeFilters,
    window: PageWindow,
    manager?: EntityManager,
  ): Promise<ListRows<SkillEmployeeRecord> | null> {
    const where = skillEmployeeConditions(organisationId, skillId, filters);
    // The total is counted before the keyset narrows the rows, so it counts the whole list.
    const counted = window.counted ? where.sql : 'false';
    const countParameters = where.parameters;
    if (window.after) afterSkillEmployee(where, window.after);
    const page = where.page(window.fetch, window.offset);
    const order = 'ps.latest_score DESC NULLS LAST, ps.employee_id';
    const [rows, [found]] = await Promise.all([
      this.database.manager(manager).query<SkillEmployeeRow[]>(
        `SELECT ${EMPLOYEE_COLUMNS.select('e')}, ps.id AS "personSkillId", ${LATEST_RATING_COLUMNS}
           FROM (SELECT ps.id, ps.employee_id, ps.latest_rating_id, ps.latest_score
                   FROM person_skills ps WHERE ${where.sql} ORDER BY ${order} ${page.sql}) ps
           JOIN employees e ON e.id = ps.employee_id
           LEFT JOIN ratings latest ON latest.id = ps.latest_rating_id
          ORDER BY ${order}`,
        page.parameters,
      ),
      // The count also proves the skill exists: no row when it does not.
      this.database.manager(manager).query<{ total: number }[]>(
        `SELECT (SELECT count(*)::int FROM person_skills ps WHERE ${counted}) AS total
           FROM skills WHERE organisation_id = $1 AND id = $2`,
        window.counted ? countParameters : [organisationId, skillId],
      ),
    ]);
    if (!found) return null;
    const records = rows.map(({ personSkillId, ratingId, score, ratingType, comment, ratedAt, ...employee }) => ({
      employee,
      personSkillId,
      latestRating: latestRatingOf({ ratingId, score, ratingType, comment, ratedAt }),
    }));
    return { rows: records, order: SKILL_EMPLOYEE_ORDER, total: window.counted ? found.total : null };
  }

  /**
   * How many of the skill's employees the filters keep have each latest score (null: never rated), by the same
   * conditions as findPage, so the console's chart counts what GET /skills/{id}/employees lists. One pass over
   * person_skills_skill_score_idx.
   */
  async latestScoreCounts(
    organisationId: string,
    skillId: string,
    filters: SkillEmployeeFilters,
  ): Promise<Array<{ score: number | null; count: number }>> {
    const where = skillEmployeeConditions(organisationId, skillId, filters);
    return this.database.manager().query(
      `SELECT ps.latest_score AS score, count(*)::int AS count FROM person_skills ps WHERE ${where.sql}
          GROUP BY ps.latest_score ORDER BY ps.latest_score NULLS LAST`,
      where.parameters,
    );
  }
}

/** Which person_skills rows of the skill the filters keep. */
function skillEmployeeConditions(
  organisationId: string,
  skillId: string,
  filters: SkillEmployeeFilters,
): SqlConditions {
  const where = new SqlConditions().and('ps.organisation_id = ?', organisationId).and('ps.skill_id = ?', skillId);
  if (filters.minScore !== undefined) where.and('ps.latest_score >= ?', filters.minScore);
  if (filters.isActive !== undefined) {
    where.and(`EXISTS (SELECT 1 FROM employees f WHERE f.organisation_id = ps.organisation_id
                AND f.id = ps.employee_id AND f.left_at IS ${filters.isActive ? '' : 'NOT '}NULL)`);
  }
  return where;
}
