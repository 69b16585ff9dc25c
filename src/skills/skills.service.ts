import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import { Page } from '../common/pagination';
import { isUuid, newId } from '../common/uuid';
import { escapeLikePattern } from '../common/like-pattern';
import { isForeignKeyViolation, violatedUniqueIndex } from '../common/postgres-errors';
import { Rating } from '../ratings/entities/rating.entity';
import { CreateSkillDto } from './dto/create-skill.dto';
import { ListSkillsQuery } from './dto/list-skills.query';
import { DeletedResponse, SkillDetailResponse, SkillResponse, toSkillResponse } from './dto/skill.response';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { Skill } from './entities/skill.entity';

@Injectable()
export class SkillsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(organisationId: string, query: ListSkillsQuery): Promise<Page<SkillResponse>> {
    const builder = this.dataSource
      .createQueryBuilder(Skill, 'skill')
      .where('skill.organisation_id = :organisationId', { organisationId })
      .orderBy('skill.created_at', 'ASC')
      .addOrderBy('skill.id', 'ASC')
      .skip(query.offset)
      .take(query.limit);
    if (query.search !== undefined) {
      builder.andWhere(`lower(skill.name) LIKE '%' || lower(:search) || '%'`, { search: escapeLikePattern(query.search) });
    }
    const [skills, total] = await builder.getManyAndCount();
    return Page.of(skills.map(toSkillResponse), total, query);
  }

  async get(organisationId: string, id: string): Promise<SkillDetailResponse> {
    const skill = await this.findOrFail(this.dataSource.manager, organisationId, id);
    // Employees linked to the skill who are still active (leftAt null).
    const [{ count }] = await this.dataSource.query<{ count: number }[]>(
      `SELECT count(*)::int AS count
         FROM person_skills ps
         JOIN employees e ON e.id = ps.employee_id
        WHERE ps.organisation_id = $1 AND ps.skill_id = $2 AND e.left_at IS NULL`,
      [organisationId, id],
    );
    return { ...toSkillResponse(skill), employeeCount: count };
  }

  async create(organisationId: string, input: CreateSkillDto): Promise<SkillResponse> {
    const now = new Date();
    const skill: Skill = {
      id: newId(),
      organisationId,
      name: input.name,
      description: input.description ?? null,
      ratingScaleMin: input.ratingScaleMin ?? 0,
      ratingScaleMax: input.ratingScaleMax ?? 5,
      ratingScaleType: input.ratingScaleType ?? 'NUMERIC',
      createdAt: now,
      updatedAt: now,
    };
    assertScale(skill);
    await this.writeUnique((manager) => manager.insert(Skill, skill));
    return toSkillResponse(skill);
  }

  async update(organisationId: string, id: string, input: UpdateSkillDto): Promise<SkillResponse> {
    return this.writeUnique(async (manager) => {
      const skill = await this.findOrFail(manager, organisationId, id, 'pessimistic_write');
      for (const [field, value] of Object.entries(input)) {
        if (value !== undefined) Object.assign(skill, { [field]: value });
      }
      assertScale(skill);
      skill.updatedAt = new Date();
      await manager.update(Skill, { organisationId, id }, skill);
      return toSkillResponse(skill);
    });
  }

  /** Refused (409) while any employee rating exists on the skill, or while anything else references it. */
  async remove(organisationId: string, id: string): Promise<DeletedResponse> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await this.findOrFail(manager, organisationId, id, 'pessimistic_write');
        const rated = await manager.exists(Rating, { where: { organisationId, skillId: id } });
        if (rated) throw new ConflictError('The skill has employee ratings and cannot be deleted');
        await manager.delete(Skill, { organisationId, id });
        return { deleted: true };
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new ConflictError('The skill is in use and cannot be deleted');
      throw error;
    }
  }

  /**
   * The skill with this id in this organisation, or 404; a malformed id is unknown too (it may come
   * from a request body). Raters take a key-share lock so the skill cannot vanish under their write.
   */
  async findOrFail(
    manager: EntityManager,
    organisationId: string,
    id: string,
    lock?: 'pessimistic_write' | 'for_key_share',
  ): Promise<Skill> {
    if (!isUuid(id)) throw new NotFoundError('Skill');
    const query = manager
      .createQueryBuilder(Skill, 'skill')
      .where('skill.organisation_id = :organisationId AND skill.id = :id', { organisationId, id: id.toLowerCase() });
    if (lock) query.setLock(lock);
    const skill = await query.getOne();
    if (!skill) throw new NotFoundError('Skill');
    return skill;
  }

  private async writeUnique<T>(write: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(write);
    } catch (error) {
      if (violatedUniqueIndex(error) === 'skills_name_key') {
        throw new ConflictError('A skill with this name already exists');
      }
      throw error;
    }
  }
}

function assertScale(skill: Skill): void {
  if (skill.ratingScaleMin > skill.ratingScaleMax) {
    throw ValidationError.forField(
      'ratingScaleMin',
      `ratingScaleMin (${skill.ratingScaleMin}) must not be greater than ratingScaleMax (${skill.ratingScaleMax})`,
    );
  }
}
