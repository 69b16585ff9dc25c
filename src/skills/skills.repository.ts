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
import { SkillFields } from './dto/skill.response';
import { Skill } from './entities/skill.entity';

export const SKILL_UNIQUE_MESSAGES = { skills_name_key: 'A skill with this name already exists' };

/**
 * The skills table, its organisation aside: selects read rows under the Skill entity's names, writes bind one
 * array per column, and the changeable columns are what a PATCH or bulk item may change.
 */
const SKILL_COLUMNS = new ColumnMap<SkillFields>([
  { property: 'id', column: 'id', type: 'uuid' },
  { property: 'name', column: 'name', type: 'text', changeable: true },
  { property: 'description', column: 'description', type: 'text', changeable: true },
  { property: 'ratingScaleMin', column: 'rating_scale_min', type: 'integer', changeable: true },
  { property: 'ratingScaleMax', column: 'rating_scale_max', type: 'integer', changeable: true },
  { property: 'ratingScaleType', column: 'rating_scale_type', type: 'text', changeable: true },
  { property: 'createdAt', column: 'created_at', type: 'timestamptz' },
  { property: 'updatedAt', column: 'updated_at', type: 'timestamptz' },
]);

/** What a PATCH writes beside updated_at. */
const CHANGEABLE = SKILL_COLUMNS.changeable();

/** The no-op-aware UPDATEs of one and of many rows (ColumnMap.updateOne, updateMany), guarded by the name. */
const GUARDED = SKILL_COLUMNS.guardedBy([{ constraint: 'skills_name_key', column: 'name', lower: true }]);
const UPDATE_ONE = GUARDED.updateOne('skills');
const UPDATE_MANY = GUARDED.updateMany('skills');

/** All SQL of the skills catalogue. */
@Injectable()
export class SkillsRepository {
  constructor(private readonly database: Database) {}

  /**
   * One window in list order (createdAt, id; with updatedSince: updatedAt, id, on skills_updated_idx) and, in
   * page mode, the total.
   */
  async findPage(
    organisationId: string,
    query: ListSkillsQuery,
    window: PageWindow,
    manager?: EntityManager,
  ): Promise<ListRows<SkillFields>> {
    const updatedSince = toDateOrNull(query.updatedSince);
    const where = new SqlConditions().and('s.organisation_id = ?', organisationId);
    if (updatedSince) where.and('s.updated_at >= ?', updatedSince);
    if (query.search !== undefined) {
      where.and(`lower(s.name) LIKE '%' || lower(?) || '%'`, escapeLikePattern(query.search));
    }
    const total = window.counted ? this.count(where, manager) : null;
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
          `SELECT ${SKILL_COLUMNS.select('s')} FROM skills s WHERE ${where.sql} ORDER BY ${orderByColumns(order)} ${page.sql}`,
          page.parameters,
        ),
      total,
    ]);
    return { rows, order, total: counted };
  }

  /** The skill, or 404; a malformed id is unknown too (it may come from a request body). */
  findOrFail(organisationId: string, id: string, manager?: EntityManager): Promise<Skill> {
    return this.findOne(organisationId, id, false, manager);
  }

  /** As findOrFail, with the row locked until the transaction ends. */
  findForUpdate(organisationId: string, id: string, manager?: EntityManager): Promise<Skill> {
    return this.findOne(organisationId, id, true, manager);
  }

  /** The organisation's skills with these lower-cased names, by lower-cased name. */
  async findByLowerNames(
    organisationId: string,
    lowerNames: string[],
    manager?: EntityManager,
  ): Promise<Map<string, Skill>> {
    if (lowerNames.length === 0) return new Map();
    const skills = await this.database
      .manager(manager)
      .createQueryBuilder(Skill, 'skill')
      .where('skill.organisation_id = :organisationId', { organisationId })
      .andWhere('lower(skill.name) = ANY(:lowerNames)', { lowerNames })
      .getMany();
    return new Map(skills.map((skill) => [skill.name.toLowerCase(), skill]));
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

  /** A name the organisation already has (in any case) is 409. */
  async insert(organisationId: string, skill: Omit<Skill, 'organisationId'>, manager?: EntityManager): Promise<void> {
    // insertMany's one statement: TypeORM's insert would build its SQL anew for every request.
    await this.insertMany(organisationId, [{ ...skill, organisationId }], manager);
  }

  /**
   * Writes the skill's fields and `updatedAt`, unless they all equal the stored ones: then nothing is written
   * and false is answered (the comparison is part of the UPDATE, so it costs no extra round trip). Another
   * skill's name (in any case) is 409.
   */
  async update(organisationId: string, skill: Skill, updatedAt: Date, manager?: EntityManager): Promise<boolean> {
    const values = [organisationId, skill.id, ...CHANGEABLE.values(skill), updatedAt];
    const written = this.database.manager(manager).query<GuardedRow[]>(UPDATE_ONE, values);
    // The guard finds a taken name first; the index only sees one written at the same moment, uncommitted.
    const rows = await mapConstraintErrors(written, { unique: SKILL_UNIQUE_MESSAGES });
    return writtenIds(rows, SKILL_UNIQUE_MESSAGES).length > 0;
  }

  /** The organisation's skills with these names (compared lower-case), locked until the transaction ends. */
  async lockByNames(organisationId: string, names: string[], manager?: EntityManager): Promise<Skill[]> {
    if (names.length === 0) return [];
    return this.database
      .manager(manager)
      .createQueryBuilder(Skill, 'skill')
      .where('skill.organisation_id = :organisationId', { organisationId })
      .andWhere('lower(skill.name) = ANY (:names)', { names: names.map((name) => name.toLowerCase()) })
      .setLock('pessimistic_write')
      .getMany();
  }

  /**
   * insert for many skills in one statement; one duplicate name fails them all (409, as insert): the statement
   * writes around it, without the unique violation PostgreSQL would log with the name, and the error rolls back
   * what it wrote. The name is the one unique key a new skill can take.
   */
  async insertMany(organisationId: string, skills: Skill[], manager?: EntityManager): Promise<void> {
    if (skills.length === 0) return;
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
    if (written < skills.length) throw new ConflictError(SKILL_UNIQUE_MESSAGES.skills_name_key);
  }

  /**
   * update for many skills in one statement; answers the ids it wrote (not those whose values all equal the
   * stored ones, by update's rule). One duplicate name fails them all.
   */
  async updateMany(organisationId: string, skills: Skill[], manager?: EntityManager): Promise<string[]> {
    if (skills.length === 0) return [];
    const values = [organisationId, ...SKILL_COLUMNS.arrays(skills)];
    const written = this.database.manager(manager).query<GuardedRow[]>(UPDATE_MANY, values);
    return writtenIds(await mapConstraintErrors(written, { unique: SKILL_UNIQUE_MESSAGES }), SKILL_UNIQUE_MESSAGES);
  }

  /** A skill something still references (an employee skill) is 409. */
  async delete(organisationId: string, id: string, manager?: EntityManager): Promise<void> {
    await mapConstraintErrors(this.database.manager(manager).delete(Skill, { organisationId, id }), {
      foreignKey: () => new ConflictError('The skill is in use and cannot be deleted'),
    });
  }

  private async count(where: SqlConditions, manager?: EntityManager): Promise<number> {
    const [row] = await this.database
      .manager(manager)
      .query<{ total: number }[]>(`SELECT count(*)::int AS total FROM skills s WHERE ${where.sql}`, where.parameters);
    return row.total;
  }

  private async findOne(organisationId: string, id: string, forUpdate: boolean, manager?: EntityManager) {
    if (!isUuid(id)) throw new NotFoundError('Skill');
    const query = this.database
      .manager(manager)
      .createQueryBuilder(Skill, 'skill')
      .where('skill.organisation_id = :organisationId AND skill.id = :id', { organisationId, id: id.toLowerCase() });
    if (forUpdate) query.setLock('pessimistic_write');
    const skill = await query.getOne();
    if (!skill) throw new NotFoundError('Skill');
    return skill;
  }
}
