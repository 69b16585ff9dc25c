import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ColumnMap } from '../database/column-map';
import { Database } from '../database/database';
import { SqlConditions } from '../database/sql-conditions';
import { EmployeeFields } from '../employees/dto/employee.response';
import { EMPLOYEE_COLUMNS } from '../employees/employees.repository';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../pagination/cursor';
import { bySkillName } from '../ratings/latest-rating';
import { ListPositionsQuery } from './dto/list-positions.query';
import { PositionRecord, ReplacementRecord } from './dto/position.response';
import { PositionReplacement, ReplacementStatus } from './entities/position-replacement.entity';
import { PositionRequiredSkill } from './entities/position-required-skill.entity';
import { Position } from './entities/position.entity';
import { StoredPosition } from './import/import-plan';
import { gapToMinimumSql, RequiredSkill, SkillsGapTotals } from './skills-gap';

/** A position's own columns, as the import writes them. */
export type PositionColumns = Pick<
  Position,
  'id' | 'name' | 'description' | 'department' | 'status' | 'mustBeFilledBy' | 'replacesEmployeeId'
>;

export type NewPosition = PositionColumns & Pick<Position, 'ref'>;

export type NewRequiredSkill = Omit<PositionRequiredSkill, 'organisationId'>;

export type NewReplacement = Pick<
  PositionReplacement,
  'id' | 'positionId' | 'candidateEmployeeId' | 'readyAt' | 'status'
>;

/** A ranked employee with its latest score on each required skill it has been rated on. */
export interface RankedCandidate {
  employee: EmployeeFields;
  latestScoreBySkillId: ReadonlyMap<string, number>;
}

/** Latest scores by skill id, as json_object_agg returns them. */
type LatestScores = Record<string, number>;

export interface ReplacementChange {
  id: string;
  readyAt: Date;
  status: ReplacementStatus;
}

/**
 * The positions table, its organisation aside: the import writes one array per column; the changeable columns
 * are what a new file may change of a position (its ref is its key).
 */
const POSITION_COLUMNS = new ColumnMap<Omit<Position, 'organisationId'>>([
  { property: 'id', column: 'id', type: 'uuid' },
  { property: 'ref', column: 'ref', type: 'varchar' },
  { property: 'name', column: 'name', type: 'varchar', changeable: true },
  { property: 'description', column: 'description', type: 'varchar', changeable: true },
  { property: 'department', column: 'department', type: 'varchar', changeable: true },
  { property: 'status', column: 'status', type: 'varchar', changeable: true },
  { property: 'mustBeFilledBy', column: 'must_be_filled_by', type: 'timestamptz', changeable: true },
  { property: 'replacesEmployeeId', column: 'replaces_employee_id', type: 'uuid', changeable: true },
  { property: 'createdAt', column: 'created_at', type: 'timestamptz' },
  { property: 'updatedAt', column: 'updated_at', type: 'timestamptz' },
]);

/** What updatePositions writes: a position's own columns, by id. */
const POSITION_CHANGES = POSITION_COLUMNS.pick(
  'id',
  'name',
  'description',
  'department',
  'status',
  'mustBeFilledBy',
  'replacesEmployeeId',
);

/**
 * The columns of a PositionRecord under its property names; the replaced employee (`e`, left-joined) as one
 * object, or null.
 */
const POSITION_RECORD_COLUMNS = `${POSITION_COLUMNS.pick('id', 'name', 'description', 'department', 'status', 'mustBeFilledBy', 'createdAt').select('p')},
  CASE WHEN e.id IS NULL THEN NULL
       ELSE json_build_object('id', e.id, 'firstName', e.first_name, 'lastName', e.last_name) END AS "replacesPerson"`;

/** Positions are listed oldest first. */
const POSITION_ORDER: ListOrder<PositionRecord> = {
  columns: ['p.created_at', 'p.id'],
  descending: false,
  keyOf: (record) => [record.createdAt, record.id],
};

const POSITIONS_WITH_REPLACED_EMPLOYEE = `positions p
  LEFT JOIN employees e ON e.organisation_id = p.organisation_id AND e.id = p.replaces_employee_id`;

/**
 * All SQL of positions: the reads of the API, and the reads and writes of the import. Each read loads a
 * whole set at once (a page, or every child of a set of positions), and each write is one statement for
 * all of its rows (arrays unnested), so cost does not grow in queries with the size of a list or a file.
 */
@Injectable()
export class PositionsRepository {
  constructor(private readonly database: Database) {}

  /** One window in list order (createdAt, id) and, in page mode, the total: two queries, one in cursor mode. */
  async findPage(
    organisationId: string,
    query: ListPositionsQuery,
    window: PageWindow,
    manager?: EntityManager,
  ): Promise<ListRows<PositionRecord>> {
    const where = new SqlConditions().and('p.organisation_id = ?', organisationId);
    if (query.status) where.and('p.status = ?', query.status);
    const database = this.database.manager(manager);
    // Only a cursor window has a keyset, and only a page window is counted: the count never sees the keyset.
    const total = window.counted
      ? database.query<[{ total: number }]>(
          `SELECT count(*)::int AS total FROM positions p WHERE ${where.sql}`,
          where.parameters,
        )
      : null;
    where.after(POSITION_ORDER.columns, POSITION_ORDER.descending, window.after);
    const page = where.page(window.fetch, window.offset);
    const [rows, counted] = await Promise.all([
      database.query<PositionRecord[]>(
        `SELECT ${POSITION_RECORD_COLUMNS}
           FROM ${POSITIONS_WITH_REPLACED_EMPLOYEE}
          WHERE ${where.sql}
          ORDER BY ${orderByColumns(POSITION_ORDER)}
          ${page.sql}`,
        page.parameters,
      ),
      total,
    ]);
    return { rows, order: POSITION_ORDER, total: counted ? counted[0].total : null };
  }

  async findById(organisationId: string, id: string, manager?: EntityManager): Promise<PositionRecord | null> {
    const [record] = await this.findByIds(organisationId, [id], manager);
    return record ?? null;
  }

  /** The given positions, in list order. */
  async findByIds(organisationId: string, ids: string[], manager?: EntityManager): Promise<PositionRecord[]> {
    if (ids.length === 0) return [];
    return this.database.manager(manager).query<PositionRecord[]>(
      `SELECT ${POSITION_RECORD_COLUMNS}
         FROM ${POSITIONS_WITH_REPLACED_EMPLOYEE}
        WHERE p.organisation_id = $1 AND p.id = ANY($2::uuid[])
        ORDER BY p.created_at, p.id`,
      [organisationId, ids],
    );
  }

  /** The required skills of each position, by position id, in the one skill-name order. */
  async requiredSkillsOf(
    organisationId: string,
    positionIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, RequiredSkill[]>> {
    const byPositionId = new Map<string, RequiredSkill[]>(positionIds.map((id) => [id, []]));
    if (positionIds.length === 0) return byPositionId;
    const rows = await this.database.manager(manager).query<Array<RequiredSkill & { positionId: string }>>(
      `SELECT rs.position_id AS "positionId", rs.skill_id AS "skillId", s.name AS "skillName",
              rs.minimum_rating AS "minimumRating"
         FROM position_required_skills rs
         JOIN skills s ON s.organisation_id = rs.organisation_id AND s.id = rs.skill_id
        WHERE rs.organisation_id = $1 AND rs.position_id = ANY($2::uuid[])
        ORDER BY ${bySkillName('s.name', 's.id')}`,
      [organisationId, positionIds],
    );
    for (const { positionId, ...skill } of rows) byPositionId.get(positionId)?.push(skill);
    return byPositionId;
  }

  /** The possible replacements of one position with their candidates, ordered by readyAt, then id. */
  replacementsOf(organisationId: string, positionId: string, manager?: EntityManager): Promise<ReplacementRecord[]> {
    return this.database.manager(manager).query<ReplacementRecord[]>(
      `SELECT r.id, r.ready_at AS "readyAt", r.status,
              json_build_object('id', e.id, 'firstName', e.first_name, 'lastName', e.last_name) AS candidate
         FROM position_replacements r
         JOIN employees e ON e.organisation_id = r.organisation_id AND e.id = r.candidate_employee_id
        WHERE r.organisation_id = $1 AND r.position_id = $2
        ORDER BY r.ready_at, r.id`,
      [organisationId, positionId],
    );
  }

  /** Imports of one organisation wait for each other until the transaction ends, so two new refs never race. */
  async lockImports(organisationId: string, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`positions-import:${organisationId}`]);
  }

  /** The positions with these refs, with their children, by ref: three queries. */
  async findStoredByRefs(
    organisationId: string,
    refs: string[],
    manager?: EntityManager,
  ): Promise<Map<string, StoredPosition>> {
    const database = this.database.manager(manager);
    const positions = await database
      .createQueryBuilder(Position, 'p')
      .where('p.organisationId = :organisationId', { organisationId })
      .andWhere('p.ref = ANY(:refs)', { refs })
      .getMany();
    const stored = new Map<string, StoredPosition>(
      positions.map((position) => [position.id, { position, requiredSkills: [], replacements: [] }]),
    );
    if (positions.length) {
      const ids = [...stored.keys()];
      const requiredSkills = await database
        .createQueryBuilder(PositionRequiredSkill, 'rs')
        .where('rs.organisationId = :organisationId AND rs.positionId = ANY(:ids)', { organisationId, ids })
        .getMany();
      const replacements = await database
        .createQueryBuilder(PositionReplacement, 'r')
        .where('r.organisationId = :organisationId AND r.positionId = ANY(:ids)', { organisationId, ids })
        .getMany();
      for (const skill of requiredSkills) stored.get(skill.positionId)?.requiredSkills.push(skill);
      for (const replacement of replacements) stored.get(replacement.positionId)?.replacements.push(replacement);
    }
    return new Map([...stored.values()].map((each) => [each.position.ref, each]));
  }

  /** Inserts the positions, created and updated at `at`. */
  async insertPositions(organisationId: string, positions: NewPosition[], at: Date, manager?: EntityManager) {
    if (positions.length === 0) return;
    const rows = positions.map((position) => ({ ...position, createdAt: at, updatedAt: at }));
    await this.database.manager(manager).query(
      `INSERT INTO positions (organisation_id, ${POSITION_COLUMNS.names()})
       SELECT $1, ${POSITION_COLUMNS.names('v')} FROM ${POSITION_COLUMNS.unnest(2, 'v')}`,
      [organisationId, ...POSITION_COLUMNS.arrays(rows)],
    );
  }

  /** Writes the positions' own columns, updated at `at`. */
  async updatePositions(organisationId: string, positions: PositionColumns[], at: Date, manager?: EntityManager) {
    if (positions.length === 0) return;
    await this.database.manager(manager).query(
      `UPDATE positions p
          SET ${POSITION_CHANGES.set(POSITION_CHANGES.of('c'))}, updated_at = $2
         FROM ${POSITION_CHANGES.unnest(3, 'c')}
        WHERE p.organisation_id = $1 AND p.id = c.id`,
      [organisationId, at, ...POSITION_CHANGES.arrays(positions)],
    );
  }

  async deleteRequiredSkills(organisationId: string, positionIds: string[], manager?: EntityManager) {
    if (positionIds.length === 0) return;
    await this.database
      .manager(manager)
      .query(`DELETE FROM position_required_skills WHERE organisation_id = $1 AND position_id = ANY($2::uuid[])`, [
        organisationId,
        positionIds,
      ]);
  }

  async insertRequiredSkills(organisationId: string, skills: NewRequiredSkill[], manager?: EntityManager) {
    if (skills.length === 0) return;
    await this.database.manager(manager).query(
      `INSERT INTO position_required_skills (organisation_id, position_id, skill_id, minimum_rating)
       SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::integer[])`,
      [
        organisationId,
        skills.map((each) => each.positionId),
        skills.map((each) => each.skillId),
        skills.map((each) => each.minimumRating),
      ],
    );
  }

  async deleteReplacements(organisationId: string, ids: string[], manager?: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    await this.database
      .manager(manager)
      .query(`DELETE FROM position_replacements WHERE organisation_id = $1 AND id = ANY($2::uuid[])`, [
        organisationId,
        ids,
      ]);
  }

  /** Writes readyAt and status of the replacements, updated at `at`. */
  async updateReplacements(
    organisationId: string,
    changes: ReplacementChange[],
    at: Date,
    manager?: EntityManager,
  ): Promise<void> {
    if (changes.length === 0) return;
    await this.database.manager(manager).query(
      `UPDATE position_replacements r
          SET ready_at = c.ready_at, status = c.status, updated_at = $2
         FROM unnest($3::uuid[], $4::timestamptz[], $5::varchar[]) AS c (id, ready_at, status)
        WHERE r.organisation_id = $1 AND r.id = c.id`,
      [
        organisationId,
        at,
        changes.map((each) => each.id),
        changes.map((each) => each.readyAt),
        changes.map((each) => each.status),
      ],
    );
  }

  /** Inserts the replacements, created and updated at `at`. */
  async insertReplacements(organisationId: string, replacements: NewReplacement[], at: Date, manager?: EntityManager) {
    if (replacements.length === 0) return;
    await this.database.manager(manager).query(
      `INSERT INTO position_replacements (organisation_id, created_at, updated_at, id, position_id,
                                          candidate_employee_id, ready_at, status)
       SELECT $1, $2, $2, * FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::timestamptz[], $7::varchar[])`,
      [
        organisationId,
        at,
        replacements.map((each) => each.id),
        replacements.map((each) => each.positionId),
        replacements.map((each) => each.candidateEmployeeId),
        replacements.map((each) => each.readyAt),
        replacements.map((each) => each.status),
      ],
    );
  }

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
  async rankCandidates(
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
