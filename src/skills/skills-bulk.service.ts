import { Injectable } from '@nestjs/common';
import { BulkItemOutcome, BulkResult, failItemOn, PlannedChange, validateItem, writeChanges } from '../common/bulk';
import { ConflictError } from '../common/errors';
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

const DUPLICATE_NAME = 'An earlier item of this request has this name';

/**
 * POST /skills/bulk: each item is a POST or a PATCH of a skill, matched by name case-insensitively, checked by
 * the same DTOs and rules as those and written set-based in one transaction (see writeChanges). Each applied
 * item records what POST or PATCH would: skill.created, or skill.updated with its changes (feed only).
 */
@Injectable()
export class SkillsBulkService {
  constructor(
    private readonly database: Database,
    private readonly skills: SkillsRepository,
    private readonly events: DomainEvents,
  ) {}

  async upsert(organisationId: string, items: unknown[], write: WriteContext): Promise<BulkResult> {
    const outcomes = items.map((_item, index) => new BulkItemOutcome(index));
    await this.database.transaction(async (manager) => {
      const names = [...new Set(items.map(lowerNameOf).filter((name) => name !== undefined))];
      const existing = await this.skills.lockByNames(organisationId, names, manager);
      const byName = new Map(existing.map((skill) => [skill.name.toLowerCase(), skill]));
      const now = new Date();
      const planned = this.plan(organisationId, items, outcomes, byName, now);
      const applied = await writeChanges(manager, planned, {
        many: async (updates, creates) => {
          const updated = await this.skills.updateMany(organisationId, updates, manager);
          await this.skills.insertMany(organisationId, creates, manager);
          return updated;
        },
        one: ({ before, after }) =>
          before
            ? this.skills.update(organisationId, after, after.updatedAt, manager)
            : this.skills.insert(organisationId, after, manager).then(() => true),
      });
      await this.events.publishMany(
        manager,
        organisationId,
        applied.map((change) => eventOf(change, now)),
      );
    }, write);
    return new BulkResult(outcomes.map((outcome) => outcome.toResponse()));
  }

  private plan(
    organisationId: string,
    items: unknown[],
    outcomes: BulkItemOutcome[],
    byName: Map<string, Skill>,
    now: Date,
  ): PlannedChange<Skill>[] {
    const planned: PlannedChange<Skill>[] = [];
    const seenNames = new Set<string>();
    for (const [index, item] of items.entries()) {
      const outcome = outcomes[index];
      const name = lowerNameOf(item);
      try {
        const before = name === undefined ? undefined : byName.get(name);
        const input = before ? validateItem(UpdateSkillDto, item) : validateItem(CreateSkillDto, item);
        if (seenNames.has(name!)) throw new ConflictError(DUPLICATE_NAME);
        seenNames.add(name!);
        const after = before ? { ...before } : newSkill(organisationId, input as CreateSkillDto, now);
        if (before) applyChanges(after, input);
        after.updatedAt = now;
        planned.push({ outcome, before: before ?? null, after });
      } catch (error) {
        if (name !== undefined) seenNames.add(name);
        failItemOn(outcome, error);
      }
    }
    return planned;
  }
}

/** The item's name in lower case when it is a string; the item's validation reports anything else. */
function lowerNameOf(item: unknown): string | undefined {
  const name = (item as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name.toLowerCase() : undefined;
}

/** What POST (skill.created) or PATCH (skill.updated with what it altered) records for the change. */
function eventOf({ before, after }: PlannedChange<Skill>, now: Date): PublishedEvent {
  const data = toSkillResponse(after);
  if (!before) return { name: 'skill.created', data, occurredAt: now };
  return { name: 'skill.updated', data, occurredAt: now, changes: changesBetween(toSkillResponse(before), data) };
}
