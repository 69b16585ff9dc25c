import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { escapeLikePattern } from '../database/like-pattern';
import { SqlConditions } from '../database/sql-conditions';
import { isUuid } from '../database/uuid';
import { ConflictError, NotFoundError } from '../errors/errors';
import { mapConstraintErrors } from '../errors/postgres-errors';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../pagination/cursor';
import { toDateOrNull } from '../validation/iso-date-time';
import { ListSkillsQuery } from './dto/list-skills.query';
import { Skill } from './entities/skill.entity';

export const SKILL_UNIQUE_MESSAGES = { skills_name_key: 'A skill with this name already exists' };

/** Skills as rows of parameter arrays ($2..$9 in skillArrays' order), for one-statement writes. */
const UNNEST_SKILLS = `unnest($2::uuid[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::timestamptz[],
         $9::timestamptz[])
    AS v(id, name, description, rating_scale_min, rating_scale_max, rating_scale_type, created_at, updated_at)`;

/** The no-op rule, in the UPDATE's WHERE so it costs no round trip: the stored row differs from `values`. */
function differs(table: string, values: string): string {
  const columns = ['name', 'description', 'rating_scale_min', 'rating_scale_max', 'rating_scale_type'];
  return `(${columns.map((column) => `${table}.${column}`).join(', ')}) IS DISTINCT FROM ${values}`;
}

function skillArrays(skills: Skill[]): unknown[][] {
  const column = <T>(value: (skill: Skill) => T) => skills.map(value);
  return [
    column((s) => s.id),
    column((s) => s.name),
    column((s) => s.description),
    column((s) => s.ratingScaleMin),
    column((s) => s.ratingScaleMax),
    column((s) => s.ratingScaleType),
    column((s) => s.createdAt),
    column((s) => s.updatedAt),
  ];
}

/** The skills columns under the Skill entity's property names, so raw rows are Skills (less organisationId). */
const SKILL_COLUMNS = [
  's.id',
  's.organisation_id AS "organisationId"',
  's.name',
  's.description',
  's.rating_scale_min AS "ratingScaleMin"',
  's.rating_scale_max AS "ratingScaleMax"',
  's.rating_scale_type AS "ratingScaleType"',
  's.created_at AS "createdAt"',
  's.updated_at AS "updatedAt"',
].join(', ');

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
  ): Promise<ListRows<Skill>> {
    const updatedSince = toDateOrNull(query.updatedSince);
    const where = new SqlConditions().and('s.organisation_id = ?', organisationId);
    if (updatedSince) where.and('s.updated_at >= ?', updatedSince);
    if (query.search !== undefined) {
      where.and(`lower(s.name) LIKE '%' || lower(?) || '%'`, escapeLikePattern(query.search));
    }
    const total = window.counted ? this.count(where, manager) : null;
    const order: ListOrder<Skill> = {
      columns: [updatedSince ? 's.updated_at' : 's.created_at', 's.id'],
      descending: false,
      keyOf: (skill) => [updatedSince ? skill.updatedAt : skill.createdAt, skill.id],
    };
    where.after(order.columns, order.descending, window.after);
    const page = where.page(window.fetch, window.offset);
    const [rows, counted] = await Promise.all([
      this.database
        .manager(manager)
        .query<Skill[]>(
          `SELECT ${SKILL_COLUMNS} FROM skills s WHERE ${where.sql} ORDER BY ${orderByColumns(order)} ${page.sql}`,
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
    const [rows] = await mapConstraintErrors(
      this.database.manager(manager).query<[unknown[], number]>(
        `UPDATE skills
            SET name = $3, description = $4, rating_scale_min = $5, rating_scale_max = $6, rating_scale_type = $7,
                updated_at = $8
          WHERE organisation_id = $1 AND id = $2
            AND ${differs('skills', '($3::varchar, $4::varchar, $5::integer, $6::integer, $7::varchar)')}
          RETURNING id`,
        [
          organisationId,
          skill.id,
          skill.name,
          skill.description,
          skill.ratingScaleMin,
          skill.ratingScaleMax,
          skill.ratingScaleType,
          updatedAt,
        ],
      ),
      { unique: SKILL_UNIQUE_MESSAGES },
    );
    return rows.length > 0;
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

  /** insert for many skills in one statement; one duplicate name fails them all (409, as insert). */
  async insertMany(organisationId: string, skills: Skill[], manager?: EntityManager): Promise<void> {
    if (skills.length === 0) return;
    await mapConstraintErrors(
      this.database.manager(manager).query(
        `INSERT INTO skills (id, organisation_id, name, description, rating_scale_min, rating_scale_max,
                             rating_scale_type, created_at, updated_at)
         SELECT v.id, $1, v.name, v.description, v.rating_scale_min, v.rating_scale_max, v.rating_scale_type,
                v.created_at, v.updated_at
           FROM ${UNNEST_SKILLS}`,
        [organisationId, ...skillArrays(skills)],
      ),
      { unique: SKILL_UNIQUE_MESSAGES },
    );
  }

  /**
   * update for many skills in one statement; answers the ids it wrote (not those whose values all equal the
   * stored ones, by update's rule). One duplicate name fails them all.
   */
  async updateMany(organisationId: string, skills: Skill[], manager?: EntityManager): Promise<string[]> {
    if (skills.length === 0) return [];
    const [rows] = await mapConstraintErrors(
      this.database.manager(manager).query<[{ id: string }[], number]>(
        `UPDATE skills s
            SET name = v.name, description = v.description, rating_scale_min = v.rating_scale_min,
                rating_scale_max = v.rating_scale_max, rating_scale_type = v.rating_scale_type,
                updated_at = v.updated_at
           FROM ${UNNEST_SKILLS}
          WHERE s.organisation_id = $1 AND s.id = v.id
            AND ${differs('s', '(v.name, v.description, v.rating_scale_min, v.rating_scale_max, v.rating_scale_type)')}
          RETURNING s.id`,
        [organisationId, ...skillArrays(skills)],
      ),
      { unique: SKILL_UNIQUE_MESSAGES },
    );
    return rows.map((row) => row.id);
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
