import { Injectable } from '@nestjs/common';
import { BulkResult, PlannedChange } from '../bulk/bulk';
import { stringField, upsertItems, UpsertRules } from '../bulk/bulk-upsert';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { changesBetween } from '../events/changes';
import { DomainEvents, PublishedEvent } from '../events/domain-events';
import { CreateSkillDto } from './dto/create-skill.dto';
import { toSkillResponse } from './dto/skill.response';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { Skill } from './entities/skill.entity';
import { applyChanges, newSkill } from './skill-changes';
import { SkillsRepository } from './skills.repository';

/**
 * POST /skills/bulk: each item is a POST or a PATCH of a skill, matched by name case-insensitively, checked by
 * the same DTOs and rules as those and written set-based in one transaction (see upsertItems). Each applied
 * item records what POST or PATCH would: skill.created, or skill.updated with its changes (feed only).
 */
@Injectable()
export class SkillsBulkService {
  private readonly rules: UpsertRules<Skill, CreateSkillDto, UpdateSkillDto, PublishedEvent>;

  constructor(
    private readonly database: Database,
    skills: SkillsRepository,
    private readonly events: DomainEvents,
  ) {
    this.rules = {
      repository: skills,
      lockByKeys: (organisationId, names, manager) => skills.lockByNames(organisationId, names, manager),
      keyOf: (item) => stringField(item, 'name')?.toLowerCase(),
      storedKeyOf: (skill) => skill.name.toLowerCase(),
      duplicateKeyMessage: 'An earlier item of this request has this name',
      create: { body: CreateSkillDto, build: newSkill },
      update: { body: UpdateSkillDto, apply: applyChanges },
      eventsOf,
    };
  }

  upsert(organisationId: string, items: unknown[], write: WriteContext): Promise<BulkResult> {
    return upsertItems(this.database, this.events, organisationId, items, this.rules, write);
  }
}

/** What POST (skill.created) or PATCH (skill.updated with what it altered) records for the change. */
function eventsOf({ before, after }: PlannedChange<Skill>, now: Date): PublishedEvent[] {
  const data = toSkillResponse(after);
  if (!before) return [{ name: 'skill.created', data, occurredAt: now }];
  return [{ name: 'skill.updated', data, occurredAt: now, changes: changesBetween(toSkillResponse(before), data) }];
}
