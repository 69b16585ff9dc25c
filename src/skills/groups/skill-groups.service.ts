import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database';
import { newId } from '../../database/uuid';
import { WriteContext } from '../../database/write-context';
import { ConflictError } from '../../errors/errors';
import { changesBetween } from '../../events/changes';
import { DomainEvents } from '../../events/domain-events';
import { DeletedResponse } from '../../http/deleted.response';
import { ListCursors, ListIdentity } from '../../pagination/cursor';
import { Page } from '../../pagination/pagination';
import { Preconditions } from '../../versions/preconditions';
import { RecordVersionCheck, ResourceVersions, VersionedKind } from '../../versions/resource-versions';
import { SkillGroupRef } from '../dto/skill.response';
import { CreateSkillGroupDto } from './dto/create-skill-group.dto';
import { ListSkillGroupsQuery } from './dto/list-skill-groups.query';
import {
  SkillGroupDetailResponse,
  SkillGroupRecord,
  SkillGroupResponse,
  toSkillGroupResponse,
} from './dto/skill-group.response';
import { UpdateSkillGroupDto } from './dto/update-skill-group.dto';
import { SkillGroupsRepository } from './skill-groups.repository';

/** Skill groups as If-Match and Base-Version check their writes: the fields changed are the skill_group.* events'. */
const GROUP_VERSIONS: VersionedKind<SkillGroupRecord> = {
  resource: 'SkillGroup',
  representation: toSkillGroupResponse,
};

/** Skill groups: a polyhierarchy (several parents each) without circles; changes go to the feed only. */
@Injectable()
export class SkillGroupsService {
  /** If-Match, Base-Version and REQUIRE_IF_MATCH for a write of a locked group. */
  private readonly checkVersion: RecordVersionCheck<SkillGroupRecord>;

  constructor(
    private readonly database: Database,
    private readonly groups: SkillGroupsRepository,
    private readonly events: DomainEvents,
    private readonly cursors: ListCursors,
    versions: ResourceVersions,
  ) {
    this.checkVersion = versions.checkerFor(GROUP_VERSIONS);
  }

  /** A parentId of no group of the organisation is 404. */
  async list(organisationId: string, query: ListSkillGroupsQuery): Promise<Page<SkillGroupResponse>> {
    if (query.parentId !== undefined && query.parentId !== 'root') {
      await this.groups.findOrFail(organisationId, query.parentId);
    }
    const list: ListIdentity = { name: 'skill-groups', organisationId };
    const read = await this.groups.findPage(organisationId, query, this.cursors.window(list, query));
    return this.cursors.page(list, query, read, toSkillGroupResponse);
  }

  async get(organisationId: string, id: string): Promise<SkillGroupDetailResponse> {
    const group = await this.groups.findOrFail(organisationId, id);
    const skillCount = await this.groups.countSkills(organisationId, group.id);
    return { ...toSkillGroupResponse(group), skillCount };
  }

  async create(organisationId: string, input: CreateSkillGroupDto, write: WriteContext): Promise<SkillGroupResponse> {
    const now = new Date();
    const parentIds = uniqueIds(input.parentIds ?? []);
    return this.database.transaction(async (manager) => {
      await this.groups.assertGroupsExist(organisationId, parentIds, manager);
      const group: SkillGroupRecord = {
        id: newId(),
        name: input.name,
        description: input.description ?? null,
        source: input.source ?? null,
        externalId: input.externalId ?? null,
        parents: [],
        createdAt: now,
        updatedAt: now,
        version: 1,
      };
      await this.groups.insert(organisationId, group, manager);
      // A new group has nothing below it, so no parent can close a circle.
      await this.groups.setParents(organisationId, group.id, parentIds, manager);
      group.parents = await this.groups.refs(organisationId, parentIds, manager);
      const response = toSkillGroupResponse(group);
      await this.events.publish(manager, organisationId, 'skill_group.created', response, now);
      return response;
    }, write);
  }

  /**
   * A parentIds that would make the group its own ancestor is 409; a no-op PATCH changes nothing (updatedAt and
   * version stay) and records nothing. If-Match and Base-Version are checked under the row's lock.
   */
  async update(
    organisationId: string,
    id: string,
    input: UpdateSkillGroupDto,
    write: WriteContext,
    preconditions: Preconditions = {},
  ): Promise<SkillGroupResponse> {
    return this.database.transaction(async (manager) => {
      const stored = await this.groups.findOrFail(organisationId, id, manager, true);
      const previous = toSkillGroupResponse(stored);
      const { parentIds, ...fields } = input;
      const group: SkillGroupRecord = { ...stored };
      for (const [field, value] of Object.entries(fields) as [string, unknown][]) {
        if (value !== undefined) Object.assign(group, { [field]: value });
      }
      const changes = Object.keys(changesBetween(previous, toSkillGroupResponse(group)));
      if (parentIds !== undefined && !sameIds(uniqueIds(parentIds), stored.parents)) changes.push('parents');
      if ((await this.checkVersion(organisationId, stored, preconditions, manager, changes)) === 'in-place') {
        return previous;
      }
      const now = new Date();
      group.updatedAt = now;
      let changed = await this.groups.update(organisationId, group, manager);
      if (parentIds !== undefined) {
        const ids = uniqueIds(parentIds);
        await this.groups.assertGroupsExist(organisationId, ids, manager);
        await this.groups.lockHierarchy(organisationId, manager);
        if (await this.groups.isAncestorOrSelf(organisationId, group.id, ids, manager)) {
          throw new ConflictError('A skill group cannot be its own ancestor');
        }
        if (await this.groups.setParents(organisationId, group.id, ids, manager)) {
          group.parents = await this.groups.refs(organisationId, ids, manager);
          if (!changed) await this.groups.touch(organisationId, group.id, now, manager);
          changed = true;
        }
      }
      if (!changed) return previous;
      // The trigger moved the locked row's version by one (in the UPDATE, or in the touch of a change of parents).
      group.version = stored.version + 1;
      const response = toSkillGroupResponse(group);
      await this.events.publish(
        manager,
        organisationId,
        'skill_group.updated',
        response,
        now,
        changesBetween(previous, response),
      );
      return response;
    }, write);
  }

  /** 409 while the group has child groups; its skills just leave it. */
  async remove(
    organisationId: string,
    id: string,
    write: WriteContext,
    preconditions: Preconditions = {},
  ): Promise<DeletedResponse> {
    return this.database.transaction(async (manager) => {
      const group = await this.groups.findOrFail(organisationId, id, manager, true);
      await this.checkVersion(organisationId, group, preconditions, manager);
      if (await this.groups.hasChildren(organisationId, group.id, manager)) {
        throw new ConflictError('The skill group has child groups and cannot be deleted');
      }
      await this.groups.delete(organisationId, group.id, manager);
      // The deletion makes no new version: it is listed after the changes of the version it ends.
      await this.events.publishMany(manager, organisationId, [
        { name: 'skill_group.deleted', data: { id: group.id }, occurredAt: new Date(), resourceVersion: group.version },
      ]);
      return { deleted: true };
    }, write);
  }
}

/** Whether the groups are those of these ids, in any order. */
function sameIds(ids: string[], groups: SkillGroupRef[]): boolean {
  return ids.length === groups.length && groups.every(({ id }) => ids.includes(id));
}

/** Ids as stored (lower case), each once. */
function uniqueIds(ids: string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}
