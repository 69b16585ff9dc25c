import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { ConflictError } from '../errors/errors';
import { changesBetween } from '../events/changes';
import { DomainEvents } from '../events/domain-events';
import { DeletedResponse } from '../http/deleted.response';
import { ListCursors, ListIdentity } from '../pagination/cursor';
import { Page } from '../pagination/pagination';
import { Preconditions } from '../versions/preconditions';
import { RecordVersionCheck, ResourceVersions } from '../versions/resource-versions';
import { CreateSkillDto } from './dto/create-skill.dto';
import { ListSkillsQuery } from './dto/list-skills.query';
import { SkillDetailResponse, SkillRecord, SkillResponse, toSkillResponse } from './dto/skill.response';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { SkillGroupsRepository } from './groups/skill-groups.repository';
import { applyChanges, changedFields, newSkill, SKILL_VERSIONS } from './skill-changes';
import { SkillsRepository } from './skills.repository';

@Injectable()
export class SkillsService {
  /** If-Match, Base-Version and REQUIRE_IF_MATCH for a write of a locked skill. */
  readonly checkVersion: RecordVersionCheck<SkillRecord>;

  constructor(
    private readonly database: Database,
    private readonly skills: SkillsRepository,
    private readonly events: DomainEvents,
    private readonly cursors: ListCursors,
    private readonly groups: SkillGroupsRepository,
    versions: ResourceVersions,
  ) {
    this.checkVersion = versions.checkerFor(SKILL_VERSIONS);
  }

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

  /**
   * Records skill.updated with what the change altered (read from the locked row: no extra round trip). A PATCH
   * that sends the current values changes nothing: updatedAt and version stay and nothing is recorded. If-Match
   * and Base-Version are checked under the row's lock (ResourceVersions): a refusal writes nothing.
   */
  async update(
    organisationId: string,
    id: string,
    input: UpdateSkillDto,
    write: WriteContext,
    preconditions: Preconditions = {},
  ): Promise<SkillResponse> {
    return this.database.transaction(async (manager) => {
      const stored = await this.skills.findForUpdate(organisationId, id, manager);
      const previous = toSkillResponse(stored);
      const skill = { ...stored };
      applyChanges(skill, input);
      const changes = changedFields(stored, skill);
      if ((await this.checkVersion(organisationId, stored, preconditions, manager, changes)) === 'in-place') {
        return previous;
      }
      const now = new Date();
      if (!(await this.skills.update(organisationId, skill, now, manager))) return previous;
      skill.updatedAt = now;
      // The trigger moved the locked row's version by one (in the UPDATE, or in the touch of a change of links).
      skill.version = stored.version + 1;
      const response = toSkillResponse(skill);
      await this.events.publish(
        manager,
        organisationId,
        'skill.updated',
        response,
        now,
        changesBetween(previous, response),
      );
      return response;
    }, write);
  }

  /** Refused (409) while any employee rating exists on the skill, or while anything else references it. */
  async remove(
    organisationId: string,
    id: string,
    write: WriteContext,
    preconditions: Preconditions = {},
  ): Promise<DeletedResponse> {
    return this.database.transaction(async (manager) => {
      const skill = await this.skills.findForUpdate(organisationId, id, manager);
      await this.checkVersion(organisationId, skill, preconditions, manager);
      if (await this.skills.hasRatings(organisationId, id, manager)) {
        throw new ConflictError('The skill has employee ratings and cannot be deleted');
      }
      await this.skills.delete(organisationId, skill.id, manager);
      // The deletion makes no new version: it is listed after the changes of the version it ends.
      await this.events.publishMany(manager, organisationId, [
        { name: 'skill.deleted', data: { id: skill.id }, occurredAt: new Date(), resourceVersion: skill.version },
      ]);
      return { deleted: true };
    }, write);
  }
}
