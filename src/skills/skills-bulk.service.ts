import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BulkItemOutcome, BulkResult, failItemOn, PlannedChange, validateItem, writeChanges } from '../common/bulk';
import { ConflictError } from '../common/errors';
import { Database } from '../database/database';
import { CreateSkillDto } from './dto/create-skill.dto';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { Skill } from './entities/skill.entity';
import { applyChanges, newSkill } from './skill-changes';
import { SkillsRepository } from './skills.repository';

const DUPLICATE_NAME = 'An earlier item of this request has this name';

/**
 * POST /skills/bulk: each item is a POST or a PATCH of a skill, matched by name case-insensitively, checked by
 * the same DTOs and rules as those and written set-based in one transaction (see writeChanges). Skill changes
 * emit no webhook event, as the single-item endpoints.
 */
@Injectable()
export class SkillsBulkService {
  constructor(
    private readonly database: Database,
    private readonly skills: SkillsRepository,
  ) {}

  async upsert(organisationId: string, items: unknown[], transaction?: EntityManager): Promise<BulkResult> {
    const outcomes = items.map((_item, index) => new BulkItemOutcome(index));
    await this.database.transaction(async (manager) => {
      const names = [...new Set(items.map(lowerNameOf).filter((name) => name !== undefined))];
      const existing = await this.skills.lockByNames(organisationId, names, manager);
      const byName = new Map(existing.map((skill) => [skill.name.toLowerCase(), skill]));
      const planned = this.plan(organisationId, items, outcomes, byName, new Date());
      await writeChanges(manager, planned, {
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
    }, transaction);
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
