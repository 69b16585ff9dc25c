import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { ConflictError } from '../errors/errors';
import { changesBetween } from '../events/changes';
import { DomainEvents } from '../events/domain-events';
import { DeletedResponse } from '../http/deleted.response';
import { ListCursors, ListIdentity } from '../pagination/cursor';
import { Page } from '../pagination/pagination';
import { CreateSkillDto } from './dto/create-skill.dto';
import { ListSkillsQuery } from './dto/list-skills.query';
import { SkillDetailResponse, SkillResponse, toSkillResponse } from './dto/skill.response';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { SkillGroupsRepository } from './groups/skill-groups.repository';
import { applyChanges, newSkill } from './skill-changes';
import { SkillsRepository } from './skills.repository';

@Injectable()
export class SkillsService {
  constructor(
    private readonly database: Database,
    private readonly skills: SkillsRepository,
    private readonly events: DomainEvents,
    private readonly cursors: ListCursors,
    private readonly groups: SkillGroupsRepository,
  ) {}

  /** An unknown (or malformed) groupId is 404, as any id of another organisation. */
  async list(organisationId: string, query: ListSkillsQuery): Promise<Page<SkillResponse>> {
    const groupIds =
      query.groupId === undefined ? undefined : await this.groups.subtreeIdsOrFail(organisationId, query.groupId);
    const list: ListIdentity = { name: 'skills', organisationId };
    const read = await this.skills.findPage(organisationId, query, this.cursors.window(list, query), groupIds);
    return this.cursors.page(list, query, read, toSkillResponse);
  }

  async get(organisationId: string, id: string): Promise<SkillDetailResponse> {
    const skill = await this.skills.findOrFail(organisationId, id);
    const employeeCount = await this.skills.countActiveEmployees(organisationId, id);
    return { ...toSkillResponse(skill), employeeCount };
  }

  async create(organisationId: string, input: CreateSkillDto, write: WriteContext): Promise<SkillResponse> {
    const now = new Date();
    const skill = newSkill(organisationId, input, now);
    return this.database.transaction(async (manager) => {
      await this.skills.insert(organisationId, skill, manager);
      const response = toSkillResponse(skill);
      await this.events.publish(manager, organisationId, 'skill.created', response, now);
      return response;
    }, write);
  }

  /** Records skill.updated with what the change altered (read from the locked row: no extra round trip). */
  async update(organisationId: string, id: string, input: UpdateSkillDto, write: WriteContext): Promise<SkillResponse> {
    return this.database.transaction(async (manager) => {
      const skill = await this.skills.findForUpdate(organisationId, id, manager);
      const previous = toSkillResponse(skill);
      applyChanges(skill, input);
      // A PATCH that sends the current values changes nothing: updatedAt stays and nothing is recorded.
      const now = new Date();
      if (!(await this.skills.update(organisationId, skill, now, manager))) return previous;
      skill.updatedAt = now;
      const response = toSkillResponse(skill);
      const changes = changesBetween(previous, response);
      await this.events.publish(manager, organisationId, 'skill.updated', response, now, changes);
      return response;
    }, write);
  }

  /** Refused (409) while any employee rating exists on the skill, or while anything else references it. */
  async remove(organisationId: string, id: string, write: WriteContext): Promise<DeletedResponse> {
    return this.database.transaction(async (manager) => {
      await this.skills.findForUpdate(organisationId, id, manager);
      if (await this.skills.hasRatings(organisationId, id, manager)) {
        throw new ConflictError('The skill has employee ratings and cannot be deleted');
      }
      await this.skills.delete(organisationId, id, manager);
      await this.events.publish(manager, organisationId, 'skill.deleted', { id });
      return { deleted: true };
    }, write);
  }
}
