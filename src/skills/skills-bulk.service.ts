import { Injectable } from '@nestjs/common';
import { BulkResult, PlannedChange } from '../bulk/bulk';
import { stringField, upsertItems, UpsertRules } from '../bulk/bulk-upsert';
import { BulkWriteGate } from '../bulk/bulk-write-gate';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { changesBetween } from '../events/changes';
import { DomainEvents, PublishedEvent } from '../events/domain-events';
import { nameKey } from '../names/name-key';
import { checkItemVersions } from '../versions/item-versions';
import { BulkSkillUpdateDto } from './dto/bulk-skills.dto';
import { CreateSkillDto } from './dto/create-skill.dto';
import { SkillRecord, toSkillResponse } from './dto/skill.response';
import { applyChanges, changedFields, newSkill } from './skill-changes';
import { SkillLinksRepository } from './skill-links.repository';
import { SkillsRepository } from './skills.repository';
import { SkillsService } from './skills.service';

/**
 * POST /skills/bulk: each item is a POST or a PATCH of a skill, matched by name as names are compared (nameKey), checked by
 * the same DTOs and rules as those and written set-based in one transaction (see upsertItems). Each applied
 * item records what POST or PATCH would: skill.created, or skill.updated with its changes (feed only).
 */
@Injectable()
export class SkillsBulkService {
  private readonly rules: UpsertRules<SkillRecord, CreateSkillDto, BulkSkillUpdateDto, PublishedEvent>;

  constructor(
    private readonly database: Database,
    skills: SkillsRepository,
    links: SkillLinksRepository,
    private readonly events: DomainEvents,
    service: SkillsService,
    private readonly gate: BulkWriteGate,
  ) {
    this.rules = {
      repository: skills,
      lockByKeys: (organisationId, keys, manager) => skills.lockByNameKeys(organisationId, keys, manager),
      keyOf: (item) => {
        const name = stringField(item, 'name');
        return name === undefined ? undefined : nameKey(name);
      },
      storedKeyOf: (skill) => skill.nameKey ?? nameKey(skill.name),
      lockPlanned: (organisationId, planned, manager) => links.lockNames(organisationId, planned, manager),
      duplicateKeyMessage: 'An earlier item of this request has this name',
      create: { body: CreateSkillDto, build: newSkill },
      update: {
        body: BulkSkillUpdateDto,
        apply: (skill, { ifMatch: _ifMatch, baseVersion: _baseVersion, ...input }) => applyChanges(skill, input),
      },
      eventsOf,
      checkPlanned: (organisationId, items, planned, manager) =>
        checkItemVersions(items, planned, (before, after, preconditions) =>
          service.checkVersion(organisationId, before, preconditions, manager, changedFields(before, after)),
        ),
    };
  }

  upsert(organisationId: string, items: unknown[], write: WriteContext): Promise<BulkResult> {
    return this.gate.run(write, () =>
      upsertItems(this.database, this.events, organisationId, items, this.rules, write),
    );
  }
}

/**
 * What POST (skill.created) or PATCH (skill.updated with what it altered) records for a change that was written:
 * an update moved the locked row's version by one (the trigger, in its UPDATE or in the touch of its links).
 */
function eventsOf({ before, after }: PlannedChange<SkillRecord>, now: Date): PublishedEvent[] {
  if (!before) return [{ name: 'skill.created', data: toSkillResponse(after), occurredAt: now }];
  const data = toSkillResponse({ ...after, version: before.version + 1 });
  return [{ name: 'skill.updated', data, occurredAt: now, changes: changesBetween(toSkillResponse(before), data) }];
}
