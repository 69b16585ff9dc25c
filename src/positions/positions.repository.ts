import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ColumnMap } from '../database/column-map';
import { Database } from '../database/database';
import { SqlConditions } from '../database/sql-conditions';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../pagination/cursor';
import { ListPositionsQuery } from './dto/list-positions.query';
import { PositionRecord, ReplacementRecord } from './dto/position.response';
import { PositionReplacement, ReplacementStatus } from './entities/position-replacement.entity';
import { PositionRequiredSkill } from './entities/position-required-skill.entity';
import { Position } from './entities/position.entity';
import { StoredPosition } from './import/import-plan';
import { RequiredSkill } from './skills-gap';

/** The positions an employee is named in, as the personal-data export lists them. */
export interface EmployeeLinks {
  replaces: Array<{ id: string; name: string }>;
  candidateFor: Array<{ positionId: string; name: string; readyAt: Date; status: ReplacementStatus }>;
}

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
        ORDER BY skill_name_order(s.name), s.id`,
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

  /** The positions the employee is named in: those it replaces, and those it is a candidate for (readyAt order). */
  async linksOfEmployee(organisationId: string, employeeId: string, manager?: EntityManager): Promise<EmployeeLinks> {
    const database = this.database.manager(manager);
    const [replaces, candidateFor] = await Promise.all([
      database.query<EmployeeLinks['replaces']>(
        `SELECT id, name FROM positions
          WHERE organisation_id = $1 AND replaces_employee_id = $2 ORDER BY created_at, id`,
        [organisationId, employeeId],
      ),
      database.query<EmployeeLinks['candidateFor']>(
        `SELECT r.position_id AS "positionId", p.name, r.ready_at AS "readyAt", r.status
           FROM position_replacements r JOIN positions p ON p.id = r.position_id
          WHERE r.organisation_id = $1 AND r.candidate_employee_id = $2 ORDER BY r.ready_at, r.id`,
        [organisationId, employeeId],
      ),
    ]);
    return { replaces, candidateFor };
  }

  /**
   * Erasure: the positions that replace the employee replace nobody now (replacesPerson null), and its
   * candidacies are deleted.
   */
  async unlinkEmployee(organisationId: string, employeeId: string, manager: EntityManager): Promise<void> {
    const database = this.database.manager(manager);
    await database.query(
      `UPDATE positions SET replaces_employee_id = NULL WHERE organisation_id = $1 AND replaces_employee_id = $2`,
      [organisationId, employeeId],
    );
    await database.query(
      `DELETE FROM position_replacements WHERE organisation_id = $1 AND candidate_employee_id = $2`,
      [organisationId, employeeId],
    );
  }
}
