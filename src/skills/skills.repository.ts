import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ConflictError, NotFoundError } from '../common/errors';
import { toDateOrNull } from '../common/iso-date-time';
import { escapeLikePattern } from '../common/like-pattern';
import { mapConstraintErrors } from '../common/postgres-errors';
import { isUuid } from '../common/uuid';
import { Database } from '../database/database';
import { ListSkillsQuery } from './dto/list-skills.query';
import { Skill } from './entities/skill.entity';

export const SKILL_UNIQUE_MESSAGES = { skills_name_key: 'A skill with this name already exists' };

/** Skills as rows of parameter arrays ($2..$9 in skillArrays' order), for one-statement writes. */
const UNNEST_SKILLS = `unnest($2::uuid[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::timestamptz[],
         $9::timestamptz[])
    AS v(id, name, description, rating_scale_min, rating_scale_max, rating_scale_type, created_at, updated_at)`;

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

/** All SQL of the skills catalogue. */
@Injectable()
export class SkillsRepository {
  constructor(private readonly database: Database) {}

  /** One page in list order (createdAt, id; with updatedSince: updatedAt, id) and the total. */
  async findPage(organisationId: string, query: ListSkillsQuery, manager?: EntityManager): Promise<[Skill[], number]> {
    const updatedSince = toDateOrNull(query.updatedSince);
    const builder = this.database
      .manager(manager)
      .createQueryBuilder(Skill, 'skill')
      .where('skill.organisation_id = :organisationId', { organisationId })
      .orderBy(updatedSince ? 'skill.updated_at' : 'skill.created_at', 'ASC')
      .addOrderBy('skill.id', 'ASC')
      .skip(query.offset)
      .take(query.limit);
    if (updatedSince) builder.andWhere('skill.updated_at >= :updatedSince', { updatedSince });
    if (query.search !== undefined) {
      builder.andWhere(`lower(skill.name) LIKE '%' || lower(:search) || '%'`, {
        search: escapeLikePattern(query.search),
      });
    }
    return builder.getManyAndCount();
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
    await mapConstraintErrors(this.database.manager(manager).insert(Skill, { ...skill, organisationId }), {
      unique: SKILL_UNIQUE_MESSAGES,
    });
  }

  /** Writes every column of the skill; another skill's name (in any case) is 409. */
  async update(organisationId: string, skill: Skill, manager?: EntityManager): Promise<void> {
    await mapConstraintErrors(this.database.manager(manager).update(Skill, { organisationId, id: skill.id }, skill), {
      unique: SKILL_UNIQUE_MESSAGES,
    });
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

  /** update for many skills in one statement (every column but createdAt); one duplicate name fails them all. */
  async updateMany(organisationId: string, skills: Skill[], manager?: EntityManager): Promise<void> {
    if (skills.length === 0) return;
    await mapConstraintErrors(
      this.database.manager(manager).query(
        `UPDATE skills s
            SET name = v.name, description = v.description, rating_scale_min = v.rating_scale_min,
                rating_scale_max = v.rating_scale_max, rating_scale_type = v.rating_scale_type,
                updated_at = v.updated_at
           FROM ${UNNEST_SKILLS}
          WHERE s.organisation_id = $1 AND s.id = v.id`,
        [organisationId, ...skillArrays(skills)],
      ),
      { unique: SKILL_UNIQUE_MESSAGES },
    );
  }

  /** A skill something still references (an employee skill) is 409. */
  async delete(organisationId: string, id: string, manager?: EntityManager): Promise<void> {
    await mapConstraintErrors(this.database.manager(manager).delete(Skill, { organisationId, id }), {
      foreignKey: () => new ConflictError('The skill is in use and cannot be deleted'),
    });
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
