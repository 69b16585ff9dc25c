import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { EmployeeFields } from '../employees/dto/employee.response';
import { EMPLOYEE_COLUMNS } from '../employees/employees.repository';
import { PageWindow } from '../pagination/cursor';
import { gapToMinimumSql, RequiredSkill, SkillsGapTotals } from './skills-gap';

/** A ranked employee with its latest score on each required skill it has been rated on. */
export interface RankedCandidate {
  employee: EmployeeFields;
  latestScoreBySkillId: ReadonlyMap<string, number>;
}

/** Latest scores by skill id, as json_object_agg returns them. */
type LatestScores = Record<string, number>;

/**
 * The read model of GET /positions/{id}/candidates: every employee of the organisation ranked for a position's
 * required skills by the kept latest scores of person_skills (written by the ratings feature).
 */
@Injectable()
export class CandidatesRepository {
  constructor(private readonly database: Database) {}

  /**
   * One page of the organisation's employees ranked for the required skills of a position: totalGap ascending,
   * then matchedSkills descending, then employee id, each with its latest scores on those skills (by skill id).
   * Every employee starts at the totals of "no rating at all" (`unrated`, from the same gap definition); each
   * rated required skill moves them by the difference of its gap. A latest score of 0 moves nothing (the gap
   * counts no rating as 0), so only the required skills' person_skills rows with a kept latest score above 0
   * are read (an index-only range of person_skills_skill_score_idx per skill, a sixth fewer rows on the bench),
   * summed per employee in one hash aggregate and cut by a top-N sort (see ratedInOrder for isActive). The
   * employees no such row moves all tie at `unrated`: they come in id order from employees_organisation_id_idx,
   * as far as the page needs, and the two ordered streams are merged, so no step reads or sorts all employees.
   */
  async rank(
    organisationId: string,
    requiredSkills: readonly RequiredSkill[],
    unrated: SkillsGapTotals,
    isActive: boolean,
    window: PageWindow,
    manager?: EntityManager,
  ): Promise<RankedCandidate[]> {
    const gap = gapToMinimumSql('rs.minimum_rating', 'ps.latest_score');
    const unratedGap = gapToMinimumSql('rs.minimum_rating', 'NULL');
    // Cursor mode: only rankings after the last row seen, (totalGap, matchedSkills desc, id) as one row comparison.
    const after = (totalGap: string, matched: string, id: string) =>
      window.after ? `AND (${totalGap}, -(${matched}), ${id}) > ($8::int, -($9::int), $10::uuid)` : '';
    const rows = await this.database.manager(manager).query<Array<EmployeeFields & { latestScores: LatestScores }>>(
      `WITH required AS MATERIALIZED (
         -- Each skill's unrated gap once here, not once per person_skills row below.
         SELECT rs.skill_id, rs.minimum_rating, ${unratedGap} AS unrated_gap, (${unratedGap} = 0)::int AS unrated_matched
           FROM unnest($2::uuid[], $3::int[]) AS rs (skill_id, minimum_rating)
       ), rated AS NOT MATERIALIZED (
         SELECT ps.employee_id,
                $6::int + sum(${gap} - rs.unrated_gap)::int AS total_gap,
                $7::int + sum((${gap} = 0)::int - rs.unrated_matched)::int AS matched
           FROM required rs
           JOIN person_skills ps
             ON ps.organisation_id = $1 AND ps.skill_id = rs.skill_id AND ps.latest_score > 0
          GROUP BY ps.employee_id
       ), ${ratedInOrder(isActive, after('r.total_gap', 'r.matched', 'r.employee_id'))}
       ), ranked AS (
         (SELECT id, total_gap, matched FROM rated_in_order)
         UNION ALL
         (SELECT e.id, $6::int, $7::int
            FROM employees e
           WHERE e.organisation_id = $1 AND e.left_at IS ${isActive ? '' : 'NOT '}NULL
             -- One probe of person_skills_employee_skill_key per employee read: OFFSET 0 keeps the planner from
             -- turning it into a merge anti join, which would read that index from its start up to a cursor.
             AND NOT EXISTS (SELECT 1 FROM person_skills ps
                              WHERE ps.employee_id = e.id AND ps.skill_id = ANY($2::uuid[])
                                AND ps.latest_score > 0 OFFSET 0)
             ${after('$6::int', '$7::int', 'e.id')}
           ORDER BY e.id
           LIMIT $4::bigint + $5::bigint)
       ), page AS (
         SELECT id, total_gap, matched FROM ranked ORDER BY total_gap, matched DESC, id LIMIT $4 OFFSET $5
       )
       SELECT ${EMPLOYEE_COLUMNS.select('e')},
              -- The page's kept latest scores (what RatingsRepository.latestScores reads), in this query.
              (SELECT coalesce(json_object_agg(ps.skill_id, ps.latest_score), '{}')
                 FROM person_skills ps
                WHERE ps.organisation_id = $1 AND ps.employee_id = e.id AND ps.skill_id = ANY($2::uuid[])
                  AND ps.latest_score IS NOT NULL) AS "latestScores"
         FROM page JOIN employees e ON e.id = page.id
        ORDER BY page.total_gap, page.matched DESC, page.id`,
      [
        organisationId,
        requiredSkills.map((skill) => skill.skillId),
        requiredSkills.map((skill) => skill.minimumRating),
        window.fetch,
        window.offset,
        unrated.totalGap,
        unrated.matchedSkills,
        ...(window.after ?? []),
      ],
    );
    return rows.map(({ latestScores, ...employee }) => ({
      employee,
      latestScoreBySkillId: new Map(Object.entries(latestScores)),
    }));
  }
}

/**
 * The CTE `rated_in_order`: the rated employees of `rated` (r) in the mode's isActive, in ranking order, as many as
 * the page needs ($4 + $5). Deactivated employees are usually few, so an active page first takes twice that many
 * of the ranking whoever is active and probes only those (no hash of every deactivated employee, no check of
 * every rated one); only when deactivated ones took too much of that head does the rest of the ranking, past the
 * head, run through one hash of employees_inactive_idx. `afterCursor` is the keyset condition of cursor mode.
 */
function ratedInOrder(isActive: boolean, afterCursor: string): string {
  const deactivated = (id: string) =>
    `EXISTS (SELECT 1 FROM employees f WHERE f.organisation_id = $1 AND f.id = ${id} AND f.left_at IS NOT NULL`;
  const wanted = '($4::bigint + $5::bigint)';
  if (!isActive) {
    return `rated_in_order AS (
         SELECT r.employee_id AS id, r.total_gap, r.matched FROM rated r
          WHERE ${deactivated('r.employee_id')}) ${afterCursor}
          ORDER BY 2, 3 DESC, 1 LIMIT ${wanted}`;
  }
  return `head AS (
         SELECT r.employee_id AS id, r.total_gap, r.matched FROM rated r
          WHERE TRUE ${afterCursor}
          ORDER BY 2, 3 DESC, 1 LIMIT 2 * ${wanted}
       ), active_head AS (
         -- OFFSET 0: one probe per head row, not a hash of every deactivated employee.
         SELECT h.id, h.total_gap, h.matched FROM head h WHERE NOT ${deactivated('h.id')} OFFSET 0)
       ), rated_in_order AS (
         SELECT id, total_gap, matched FROM active_head
         UNION ALL
         (SELECT r.employee_id, r.total_gap, r.matched FROM rated r
           WHERE (SELECT count(*) FROM active_head) < ${wanted} AND (SELECT count(*) FROM head) = 2 * ${wanted}
             AND NOT ${deactivated('r.employee_id')})
             AND (r.total_gap, -r.matched, r.employee_id) >
                 (SELECT h.total_gap, -h.matched, h.id FROM head h ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1)
           ORDER BY 2, 3 DESC, 1 LIMIT ${wanted})`;
}
