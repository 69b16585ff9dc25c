import { Injectable } from '@nestjs/common';
import { ListCursors, ListIdentity } from '../common/cursor';
import { DeletedResponse } from '../common/dto/deleted.response';
import { ConflictError, ValidationError } from '../common/errors';
import { Page } from '../common/pagination';
import { newId } from '../common/uuid';
import { Database } from '../database/database';
import { CreateSkillDto } from './dto/create-skill.dto';
import { ListSkillsQuery } from './dto/list-skills.query';
import { SkillDetailResponse, SkillResponse, toSkillResponse } from './dto/skill.response';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { Skill } from './entities/skill.entity';
import { SkillsRepository } from './skills.repository';

@Injectable()
export class SkillsService {
  constructor(
    private readonly database: Database,
    private readonly skills: SkillsRepository,
    private readonly cursors: ListCursors,
  ) {}

  async list(organisationId: string, query: ListSkillsQuery): Promise<Page<SkillResponse>> {
    const list: ListIdentity = { name: 'skills', organisationId };
    const read = await this.skills.findPage(organisationId, query, this.cursors.window(list, query));
    return this.cursors.page(list, query, read, toSkillResponse);
  }

  async get(organisationId: string, id: string): Promise<SkillDetailResponse> {
    const skill = await this.skills.findOrFail(organisationId, id);
    const employeeCount = await this.skills.countActiveEmployees(organisationId, id);
    return { ...toSkillResponse(skill), employeeCount };
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
    await this.skills.insert(organisationId, skill);
    return toSkillResponse(skill);
  }

  async update(organisationId: string, id: string, input: UpdateSkillDto): Promise<SkillResponse> {
    return this.database.transaction(async (manager) => {
      const skill = await this.skills.findForUpdate(organisationId, id, manager);
      for (const [field, value] of Object.entries(input) as [string, unknown][]) {
        if (value !== undefined) Object.assign(skill, { [field]: value });
      }
      assertScale(skill);
      // A PATCH that sends the current values changes nothing, so updatedAt stays.
      const now = new Date();
      if (await this.skills.update(organisationId, skill, now, manager)) skill.updatedAt = now;
      return toSkillResponse(skill);
    });
  }

  /** Refused (409) while any employee rating exists on the skill, or while anything else references it. */
  async remove(organisationId: string, id: string): Promise<DeletedResponse> {
    return this.database.transaction(async (manager) => {
      await this.skills.findForUpdate(organisationId, id, manager);
      if (await this.skills.hasRatings(organisationId, id, manager)) {
        throw new ConflictError('The skill has employee ratings and cannot be deleted');
      }
      await this.skills.delete(organisationId, id, manager);
      return { deleted: true };
    });
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
