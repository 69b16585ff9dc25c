import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BulkItemOutcome, BulkResult, failItemOn, validateItem } from '../bulk/bulk';
import { Database } from '../database/database';
import { isUuid } from '../database/uuid';
import { WriteContext } from '../database/write-context';
import { EmployeesRepository } from '../employees/employees.repository';
import { NotFoundError } from '../errors/errors';
import { DomainEvents } from '../events/domain-events';
import { ambiguousNameError } from '../skills/resolve/ambiguous-name';
import { Resolution, SkillResolver } from '../skills/resolve/skill-resolver';
import { assertOneReferenceEach, BulkRatingItemDto } from './dto/bulk-ratings.dto';
import { toRatingResponse } from './dto/rating.response';
import { newRating } from './new-rating';
import { NewRating, RatedSkill, RatingsRepository } from './ratings.repository';
import { assertScoreInScale } from './ratings.service';

/** A valid item's rating, before it is written. */
interface PlannedRating {
  outcome: BulkItemOutcome;
  employeeId: string;
  skill: RatedSkill;
  rating: NewRating;
}

/** The employees and skills the items name, found in one query each. */
interface References {
  employeeById: Map<string, string>;
  employeeByNumber: Map<string, string>;
  skillById: Map<string, RatedSkill>;
  /** How each skillName resolved (SkillResolver: a name, else an alias only one skill has), by the name as sent. */
  skillByName: Map<string, Resolution>;
}

/**
 * POST /ratings/bulk: each item is a POST /employees/{id}/ratings naming its employee (id or personnelNumber)
 * and skill (id, or a name SkillResolver resolves), checked by the same DTO and rules, written in one transaction: the ratings and their
 * missing PersonSkills in one statement, then their skill.rated events in item order.
 */
@Injectable()
export class RatingsBulkService {
  constructor(
    private readonly database: Database,
    private readonly ratings: RatingsRepository,
    private readonly employees: EmployeesRepository,
    private readonly events: DomainEvents,
    private readonly resolver: SkillResolver,
  ) {}

  async create(organisationId: string, items: unknown[], write: WriteContext): Promise<BulkResult> {
    const outcomes = items.map((_item, index) => new BulkItemOutcome(index));
    await this.database.transaction(async (manager) => {
      const inputs = items.map((item, index) => {
        try {
          const input = validateItem(BulkRatingItemDto, item);
          assertOneReferenceEach(input);
          return input;
        } catch (error) {
          failItemOn(outcomes[index], error);
          return null;
        }
      });
      const references = await this.findReferences(organisationId, inputs, manager);
      const planned = this.plan(inputs, outcomes, references);
      const written = await this.write(organisationId, planned, manager);
      await this.events.publishMany(
        manager,
        organisationId,
        written.map(({ employeeId, rating, skill, personSkillId }) => ({
          name: 'skill.rated',
          data: { employeeId, rating: toRatingResponse({ ...rating, personSkillId, skillName: skill.name }) },
          occurredAt: rating.createdAt,
        })),
      );
    }, write);
    return new BulkResult(outcomes.map((outcome) => outcome.toResponse()));
  }

  private async findReferences(
    organisationId: string,
    inputs: (BulkRatingItemDto | null)[],
    manager: EntityManager,
  ): Promise<References> {
    const valid = inputs.filter((input) => input !== null);
    // A malformed id names nothing, as in a path: the item is 404 without a query.
    const employeeIds = valid.map((input) => input.employeeId).filter(isUuid);
    const numbers = valid.map((input) => input.personnelNumber).filter((number) => number !== undefined);
    const skillIds = valid.map((input) => input.skillId).filter(isUuid);
    const names = [...new Set(valid.map((input) => input.skillName).filter((name) => name !== undefined))];
    const employees = await this.employees.findReferences(organisationId, lowerCased(employeeIds), numbers, manager);
    const resolved = await this.resolver.resolve(organisationId, names, { suggest: false, manager });
    const resolvedIds = resolved.flatMap(({ skill }) => (skill ? [skill.id] : []));
    const skills = await this.ratings.findSkillsToRate(
      organisationId,
      [...lowerCased(skillIds), ...resolvedIds],
      manager,
    );
    return {
      employeeById: new Map(employees.map((employee) => [employee.id, employee.id])),
      employeeByNumber: new Map(employees.map((employee) => [employee.personnelNumber, employee.id])),
      skillById: new Map(skills.map((skill) => [skill.id, skill])),
      skillByName: new Map(resolved.map((resolution) => [resolution.name, resolution])),
    };
  }

  /** As the single endpoint: an unknown employee is reported before an unknown skill, then the scale. */
  private plan(inputs: (BulkRatingItemDto | null)[], outcomes: BulkItemOutcome[], found: References): PlannedRating[] {
    const planned: PlannedRating[] = [];
    const createdAt = new Date();
    for (const [index, input] of inputs.entries()) {
      if (input === null) continue;
      const outcome = outcomes[index];
      try {
        const employeeId =
          input.employeeId !== undefined
            ? found.employeeById.get(input.employeeId.toLowerCase())
            : found.employeeByNumber.get(input.personnelNumber!);
        if (employeeId === undefined) throw new NotFoundError('Employee');
        const skillId = input.skillId ?? resolvedSkillId(found.skillByName.get(input.skillName!)!);
        const skill = found.skillById.get(skillId.toLowerCase());
        if (skill === undefined) throw new NotFoundError('Skill');
        assertScoreInScale(input.score, skill);
        planned.push({ outcome, employeeId, skill, rating: newRating(skill.id, input, createdAt) });
      } catch (error) {
        failItemOn(outcome, error);
      }
    }
    return planned;
  }

  /**
   * One statement for all, without a savepoint: it fails only with the whole request. The ratings it could not
   * write (their PersonSkill committed by a concurrent request after it began) go in a second statement, which
   * sees that PersonSkill. Answers each written rating with its PersonSkill.
   */
  private async write(organisationId: string, planned: PlannedRating[], manager: EntityManager) {
    const rows = planned.map(({ employeeId, rating }) => ({ ...rating, employeeId }));
    const personSkillOf = await this.ratings.insertMany(organisationId, rows, manager);
    const missed = rows.filter((row) => !personSkillOf.has(row.ratingId));
    for (const [ratingId, personSkillId] of await this.ratings.insertMany(organisationId, missed, manager)) {
      personSkillOf.set(ratingId, personSkillId);
    }
    if (personSkillOf.size < rows.length) {
      throw new Error(`${rows.length - personSkillOf.size} ratings of a bulk request were refused twice`);
    }
    return planned.map((item) => {
      item.outcome.succeed('created', item.rating.ratingId);
      return { ...item, personSkillId: personSkillOf.get(item.rating.ratingId)! };
    });
  }
}

/** The skill a skillName names; an ambiguous name fails its item with the candidates, an unknown one is 404. */
function resolvedSkillId(resolution: Resolution): string {
  if (resolution.match === 'ambiguous') throw ambiguousNameError('skillName', resolution);
  if (resolution.skill === null) throw new NotFoundError('Skill');
  return resolution.skill.id;
}

function lowerCased(ids: string[]): string[] {
  return ids.map((id) => id.toLowerCase());
}
