import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ColumnMap } from '../database/column-map';
import { Database } from '../database/database';
import { escapeLikePattern } from '../database/like-pattern';
import { SqlConditions } from '../database/sql-conditions';
import { isUuid } from '../database/uuid';
import { ConflictError, NotFoundError } from '../errors/errors';
import { GuardedRow, mapConstraintErrors, writtenIds } from '../errors/postgres-errors';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../pagination/cursor';
import { toDateOrNull } from '../validation/iso-date-time';
import { ListSkillsQuery } from './dto/list-skills.query';
import { SkillFields, SkillRecord } from './dto/skill.response';
import { Skill } from './entities/skill.entity';
import { SkillLinksRepository } from './skill-links.repository';

const NAME_TAKEN = 'A skill with this name already exists';
const EXTERNAL_ID_TAKEN = 'A skill with this source and externalId already exists';

export const SKILL_UNIQUE_MESSAGES = {
  skills_name_key: NAME_TAKEN,
  skills_name_key_unique: NAME_TAKEN,
  skills_external_id_key: EXTERNAL_ID_TAKEN,
};

/**
 * The skills table, its organisation aside: selects read rows under the Skill entity's names, writes bind one
 * array per column, and the changeable columns are what a PATCH or bulk item may change.
 */
const SKILL_COLUMNS = new ColumnMap<Omit<Skill, 'organisationId'>>([
  { property: 'id', column: 'id', type: 'uuid' },
  { property: 'name', column: 'name', type: 'text', changeable: true },
  { property: 'nameKey', column: 'name_key', type: 'text', changeable: true },
  { property: 'description', column: 'description', type: 'text', changeable: true },
  { property: 'source', column: 'source', type: 'text', changeable: true },
  { property: 'externalId', column: 'external_id', type: 'text', changeable: true },
  { property: 'ratingScaleMin', column: 'rating_scale_min', type: 'integer', changeable: true },
  { property: 'ratingScaleMax', column: 'rating_scale_max', type: 'integer', changeable: true },
  { property: 'ratingScaleType', column: 'rating_scale_type', type: 'text', changeable: true },
  { property: 'createdAt', column: 'created_at', type: 'timestamptz' },
  { property: 'updatedAt', column: 'updated_at', type: 'timestamptz' },
  { property: 'version', column: 'version', type: 'integer' },
]);

/**
 * The no-op-aware UPDATEs of one and of many rows (ColumnMap.updateOne, updateMany), guarded by the names: the
 * index of release 4 (lower(name)) and the normalised key. source + externalId is left to its index.
 */
const GUARDED = SKILL_COLUMNS.guardedBy([
  { constraint: 'skills_name_key', column: 'name', lower: true },
  { constraint: 'skills_name_key_unique', column: 'name_key' },
]);
const UPDATE_MANY = GUARDED.updateMany('skills');

/** A skill's columns, aliases and groups (by name, then id), from the skills row aliased `s`. */
export const SKILL_RECORD_SELECT = `${SKILL_COLUMNS.select('s')},
  coalesce((SELECT array_agg(a.name ORDER BY a.position) FROM skill_aliases a
             WHERE a.skill_id = s.id AND a.kind = 'alias'), '{}') AS aliases,
  coalesce((SELECT array_agg(a.name ORDER BY a.position) FROM skill_aliases a
             WHERE a.skill_id = s.id AND a.kind = 'hidden'), '{}') AS "hiddenAliases",
  coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY g.name COLLATE "C", g.id)
              FROM skill_group_skills l JOIN skill_groups g ON g.id = l.group_id
             WHERE l.skill_id = s.id), '[]') AS groups`;

/** The SQL of the skills catalogue's skills: their rows, and (through SkillLinksRepository) aliases and groups. */
@Injectable()
export class SkillsRepository {
  constructor(
    private readonly database: Database,
    private readonly links: SkillLinksRepository,
  ) {}

  /**
   * One window in list order (createdAt, id; with updatedSince: updatedAt, id, on skills_updated_idx) and, in
   * page mode, the total. `search` matches names and aliases; `groupIds` (the query's groupId and every group
   * below it, SkillGroupsRepository.subtreeIdsOrFail) the skills linked to any of them.
   */
  async findPage(
    organisationId: string,
    query: ListSkillsQuery,
    window: PageWindow,
    groupIds?: string[],
    manager?: EntityManager,
  ): Promise<ListRows<SkillFields>> {
    const updatedSince = toDateOrNull(query.updatedSince);
    const where = new SqlConditions().and('s.organisation_id = ?', organisationId);
    if (updatedSince) where.and('s.updated_at >= ?', updatedSince);
    if (query.search !== undefined) {
      const pattern = escapeLikePattern(query.search);
      where.and(
        `(lower(s.name) LIKE '%' || lower(?) || '%' OR s.id IN (
           SELECT a.skill_id FROM skill_aliases a
            WHERE a.organisation_id = ? AND a.kind = 'alias' AND lower(a.name) LIKE '%' || lower(?) || '%'))`,
        pattern,
        organisationId,
        pattern,
      );
    }
    if (groupIds !== undefined) {
      // Probed skill by skill in list order, the page stops after its rows (a top group holds half the skills);
      // the ids as a bound array let the planner weigh that against hashing the links of a small subtree.
      where.and(
        'EXISTS (SELECT FROM skill_group_skills l WHERE l.skill_id = s.id AND l.group_id = ANY (?::uuid[]))',
        groupIds,
      );
    }
    const total = !window.counted
      ? null
      : groupIds !== undefined && !updatedSince && query.search === undefined
        ? this.countInGroups(organisationId, groupIds, manager)
        : this.count(where, manager);
    const order: ListOrder<SkillFields> = {
      columns: [updatedSince ? 's.updated_at' : 's.created_at', 's.id'],
      descending: false,
      keyOf: (skill) => [updatedSince ? skill.updatedAt : skill.createdAt, skill.id],
    };
    where.after(order.columns, order.descending, window.after);
    const page = where.page(window.fetch, window.offset);
    const [rows, counted] = await Promise.all([
      this.database
        .manager(manager)
        .query<SkillFields[]>(
          `SELECT ${SKILL_RECORD_SELECT} FROM skills s WHERE ${where.sql} ORDER BY ${orderByColumns(order)} ${page.sql}`,
          page.parameters,
        ),
      total,
    ]);
    return { rows, order, total: counted };
  }

  /** The skill, or 404; a malformed id is unknown too (it may come from a request body). */
  findOrFail(organisationId: string, id: string, manager?: EntityManager): Promise<SkillRecord> {
    return this.findOne(organisationId, id, false, manager);
  }

  /** As findOrFail, with the row locked until the transaction ends. */
  findForUpdate(organisationId: string, id: string, manager?: EntityManager): Promise<SkillRecord> {
    return this.findOne(organisationId, id, true, manager);
  }

  /**
   * The skills an import may change, locked until the transaction ends: those of `source` with these
   * externalIds, and those with these name keys (which it may adopt).
   */
  async lockForImport(
    organisationId: string,
    source: string,
    externalIds: string[],
    nameKeys: string[],
    manager: EntityManager,
  ): Promise<SkillRecord[]> {
    const rows = await this.database.manager(manager).query<SkillFields[]>(
      `SELECT ${SKILL_RECORD_SELECT} FROM skills s
        WHERE s.organisation_id = $1
          AND ((s.source = $2 AND s.external_id = ANY ($3::text[])) OR s.name_key = ANY ($4::text[]))
        ORDER BY s.id FOR UPDATE OF s`,
      [organisationId, source, externalIds, nameKeys],
    );
    return rows.map((row) => ({ ...row, organisationId }));
  }

  /** The organisation's skills with these ids (as SkillResolver answers them). */
  async findByIds(organisationId: string, ids: string[], manager?: EntityManager): Promise<Skill[]> {
    if (ids.length === 0) return [];
    return this.database
      .manager(manager)
      .createQueryBuilder(Skill, 'skill')
      .where('skill.organisation_id = :organisationId', { organisationId })
      .andWhere('skill.id = ANY(:ids)', { ids })
      .getMany();
  }

  /** The number of active employees (leftAt null) linked to the skill. */
  async countActiveEmployees(organisationId: string, id: string, manager?: EntityManager): Promise<number> {
    const [{ count }] = await this.database.manager(manager).query<{ count: number }[]>(
      `SELECT count(*)::int AS count
         FROM person_skills ps
         JOIN employees e ON e.id = ps.employee_id
        WHERE ps.organisation_id = $1 AND ps.skill_id = $2 AND e.left_at IS NULL`,
      [organisationId, id],
    );
    return count;
  }

  async hasRatings(organisationId: string, id: string, manager?: EntityManager): Promise<boolean> {
    const [{ rated }] = await this.database
      .manager(manager)
      .query<{ rated: boolean }[]>(
        `SELECT EXISTS (SELECT 1 FROM ratings WHERE organisation_id = $1 AND skill_id = $2) AS rated`,
        [organisationId, id],
      );
    return rated;
  }

  /** A name (or source + externalId) the organisation already has is 409, and so is an alias that is a name. */
  async insert(organisationId: string, skill: SkillRecord, manager: EntityManager): Promise<void> {
    await this.insertMany(organisationId, [skill], manager);
  }

  /**
   * Writes the skill's fields, aliases and groups, and `updatedAt` when any of them changed: when they all equal
   * the stored ones nothing is written and false is answered. Another skill's name is 409, and so is an alias
   * that is a skill's name, or a name that is a skill's alias.
   */
  async update(organisationId: string, skill: SkillRecord, updatedAt: Date, manager: EntityManager): Promise<boolean> {
    skill.updatedAt = updatedAt;
    return (await this.updateMany(organisationId, [skill], manager)).length > 0;
  }

  /**
   * The organisation's skills with these name keys (see nameKey), locked until the transaction ends, with their
   * aliases and groups.
   */
  async lockByNameKeys(organisationId: string, keys: string[], manager: EntityManager): Promise<SkillRecord[]> {
    if (keys.length === 0) return [];
    const rows = await this.database.manager(manager).query<SkillFields[]>(
      `SELECT ${SKILL_RECORD_SELECT} FROM skills s
        WHERE s.organisation_id = $1 AND s.name_key = ANY ($2::text[])
        ORDER BY s.id FOR UPDATE OF s`,
      [organisationId, keys],
    );
    return rows.map((row) => ({ ...row, organisationId }));
  }

  /**
   * insert for many skills in one statement each for the rows, their aliases and their groups; one taken name
   * (or source + externalId) fails them all (409, as insert): the statement writes around it, without the unique
   * violation PostgreSQL would log with the name, and the error rolls back what it wrote.
   */
  async insertMany(organisationId: string, skills: SkillRecord[], manager: EntityManager): Promise<void> {
    if (skills.length === 0) return;
    await this.links.lockNames(organisationId, skills, manager);
    const [{ written }] = await this.database.manager(manager).query<{ written: number }[]>(
      `WITH written AS (
         INSERT INTO skills (organisation_id, ${SKILL_COLUMNS.names()})
         SELECT $1, ${SKILL_COLUMNS.names('v')} FROM ${SKILL_COLUMNS.unnest(2, 'v')}
         ON CONFLICT DO NOTHING
         RETURNING 1
       )
       SELECT count(*)::int AS written FROM written`,
      [organisationId, ...SKILL_COLUMNS.arrays(skills)],
    );
    if (written < skills.length) {
      const externalTaken = await this.links.externalIdTaken(organisationId, skills, manager);
      throw new ConflictError(externalTaken ? EXTERNAL_ID_TAKEN : NAME_TAKEN);
    }
    await this.links.write(organisationId, skills, true, manager);
    await this.links.assertNamesApart(organisationId, skills, manager);
  }

  /**
   * update for many skills; answers the ids it wrote (not those whose fields, aliases and groups all equal the
   * stored ones, by update's rule). One taken name fails them all.
   */
  async updateMany(organisationId: string, skills: SkillRecord[], manager: EntityManager): Promise<string[]> {
    if (skills.length === 0) return [];
    await this.links.lockNames(organisationId, skills, manager);
    const values = [organisationId, ...SKILL_COLUMNS.arrays(skills)];
    const written = this.database.manager(manager).query<GuardedRow[]>(UPDATE_MANY, values);
    const rowsWritten = writtenIds(
      await mapConstraintErrors(written, { unique: SKILL_UNIQUE_MESSAGES }),
      SKILL_UNIQUE_MESSAGES,
    );
    const linksChanged = await this.links.write(organisationId, skills, false, manager);
    await this.links.assertNamesApart(organisationId, skills, manager);
    const changed = new Set([...rowsWritten, ...linksChanged]);
    // A change of aliases or groups alone is a change of the skill: it moves updatedAt too.
    const touched = [...linksChanged].filter((id) => !rowsWritten.includes(id));
    if (touched.length > 0) await this.touch(organisationId, touched, skills[0].updatedAt, manager);
    return skills.map((skill) => skill.id).filter((id) => changed.has(id));
  }

  /** Fresh planner statistics for the catalogue's tables, after a load that changed their size. */
  async analyzeCatalogue(): Promise<void> {
    await this.database
      .manager()
      .query('ANALYZE skills, skill_aliases, skill_groups, skill_group_parents, skill_group_skills');
  }

  /** A skill something still references (an employee skill) is 409. */
  async delete(organisationId: string, id: string, manager?: EntityManager): Promise<void> {
    await mapConstraintErrors(this.database.manager(manager).delete(Skill, { organisationId, id }), {
      foreignKey: () => new ConflictError('The skill is in use and cannot be deleted'),
    });
  }

  private async touch(organisationId: string, ids: string[], updatedAt: Date, manager: EntityManager) {
    await this.database
      .manager(manager)
      .query(`UPDATE skills SET updated_at = $3 WHERE organisation_id = $1 AND id = ANY ($2::uuid[])`, [
        organisationId,
        ids,
        updatedAt,
      ]);
  }

  /**
   * The skills linked to any of the groups, each once: on the links' group index alone, never the skills, in a
   * function whose plan does not weigh each bound group id (src/skills/sql/skill-group-skill-count-v1.sql).
   */
  private async countInGroups(organisationId: string, groupIds: string[], manager?: EntityManager): Promise<number> {
    const [row] = await this.database
      .manager(manager)
      .query<{ total: number }[]>(`SELECT skill_group_skill_count_v1($1, $2::uuid[]) AS total`, [
        organisationId,
        groupIds,
      ]);
    return row.total;
  }

  private async count(where: SqlConditions, manager?: EntityManager): Promise<number> {
    const [row] = await this.database
      .manager(manager)
      .query<{ total: number }[]>(`SELECT count(*)::int AS total FROM skills s WHERE ${where.sql}`, where.parameters);
    return row.total;
  }

  private async findOne(organisationId: string, id: string, forUpdate: boolean, manager?: EntityManager) {
    if (!isUuid(id)) throw new NotFoundError('Skill');
    const [row] = await this.database.manager(manager).query<SkillFields[]>(
      `SELECT ${SKILL_RECORD_SELECT} FROM skills s WHERE s.organisation_id = $1 AND s.id = $2
       ${forUpdate ? 'FOR UPDATE OF s' : ''}`,
      [organisationId, id.toLowerCase()],
    );
    if (!row) throw new NotFoundError('Skill');
    return { ...row, organisationId };
  }
}
