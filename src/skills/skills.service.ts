import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ListCursors, ListIdentity } from '../common/cursor';
import { DeletedResponse } from '../common/dto/deleted.response';
import { ConflictError } from '../common/errors';
import { Page } from '../common/pagination';
import { Database } from '../database/database';
import { CreateSkillDto } from './dto/create-skill.dto';
import { ListSkillsQuery } from './dto/list-skills.query';
import { SkillDetailResponse, SkillResponse, toSkillResponse } from './dto/skill.response';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { applyChanges, newSkill } from './skill-changes';
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

  async create(organisationId: string, input: CreateSkillDto, transaction?: EntityManager): Promise<SkillResponse> {
    const skill = newSkill(organisationId, input, new Date());
    await this.skills.insert(organisationId, skill, transaction);
    return toSkillResponse(skill);
  }

  async update(organisationId: string, id: string, input: UpdateSkillDto): Promise<SkillResponse> {
    return this.database.transaction(async (manager) => {
      const skill = await this.skills.findForUpdate(organisationId, id, manager);
      applyChanges(skill, input);
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
