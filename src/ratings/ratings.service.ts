import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { EmployeesRepository } from '../employees/employees.repository';
import { NotFoundError, ValidationError } from '../errors/errors';
import { DomainEvents } from '../events/domain-events';
import { ListCursors, ListIdentity } from '../pagination/cursor';
import { Page } from '../pagination/pagination';
import { parseIsoDateTime } from '../validation/iso-date-time';
import { ListRatingsQuery } from './dto/list-ratings.query';
import { RateSkillDto } from './dto/rate-skill.dto';
import { RatingRecord, RatingResponse, toRatingResponse } from './dto/rating.response';
import { newRating } from './new-rating';
import {
  NewRating,
  RATING_ORDER,
  RatedSkill,
  RatingFilters,
  RatingsRepository,
  WrittenRating,
} from './ratings.repository';

/** The rating's statement and one retry (see RatingsService.write). */
const RATING_ATTEMPTS = 2;

@Injectable()
export class RatingsService {
  constructor(
    private readonly database: Database,
    private readonly ratings: RatingsRepository,
    private readonly employees: EmployeesRepository,
    private readonly events: DomainEvents,
    private readonly cursors: ListCursors,
  ) {}

  /**
   * Appends a rating of an employee on a skill, creating their PersonSkill first when absent, and
   * emits skill.rated, all in one transaction. Shared by PUT skills and POST ratings.
   */
  async rate(
    organisationId: string,
    employeeId: string,
    skillId: string,
    input: RateSkillDto,
    write: WriteContext,
  ): Promise<RatingResponse> {
    return this.database.transaction(async (manager) => {
      const createdAt = new Date();
      const created = newRating(skillId.toLowerCase(), input, createdAt);
      const written = await this.write(organisationId, employeeId, created, manager);
      const rating = toRatingResponse({ ...created, ...written });
      await this.events.publish(manager, organisationId, 'skill.rated', { employeeId, rating }, createdAt);
      return rating;
    }, write);
  }

  /**
   * The rating's one statement (RatingsRepository.insertIfRateable). When it writes nothing, why is told in the
   * order of the contract's errors: an unknown employee, an unknown skill, a score outside the skill's scale. When
   * none of these holds, the statement missed the link a concurrent first rating committed after it began; a
   * second statement sees that link, so one retry suffices.
   */
  private async write(
    organisationId: string,
    employeeId: string,
    rating: NewRating,
    manager: EntityManager,
  ): Promise<WrittenRating> {
    for (let attempt = 1; attempt <= RATING_ATTEMPTS; attempt++) {
      const written = await this.ratings.insertIfRateable(organisationId, employeeId, rating, manager);
      if (written) return written;
      const { employeeExists, skill } = await this.ratings.findRateability(
        organisationId,
        employeeId,
        rating.skillId,
        manager,
      );
      if (!employeeExists) throw new NotFoundError('Employee');
      if (!skill) throw new NotFoundError('Skill');
      assertScoreInScale(rating.score, skill);
    }
    throw new Error(`The rating of employee ${employeeId} on skill ${rating.skillId} was refused with no reason`);
  }

  /**
   * Newest first. In page mode the count query also proves the employee exists, so a page costs two queries;
   * in cursor mode nothing is counted and the employee is looked up beside the page.
   */
  async list(organisationId: string, employeeId: string, query: ListRatingsQuery): Promise<Page<RatingResponse>> {
    const filters: RatingFilters = { skillId: query.skillId, ratingType: query.ratingType };
    if (query.from !== undefined) filters.from = parseIsoDateTime(query.from) ?? undefined;
    if (query.to !== undefined) filters.to = parseIsoDateTime(query.to) ?? undefined;
    if (filters.from && filters.to && filters.from > filters.to) {
      throw ValidationError.forField('from', 'from must not be later than to');
    }
    const list: ListIdentity = { name: 'ratings', organisationId, pathIds: [employeeId] };
    const window = this.cursors.window(list, query);
    let total: number | null = null;
    let rows: RatingRecord[] = [];
    if (window.counted) {
      total = await this.ratings.count(organisationId, employeeId, filters);
      if (total === null) throw new NotFoundError('Employee');
      if (total > 0) rows = await this.ratings.findPage(organisationId, employeeId, filters, window);
    } else {
      [, rows] = await Promise.all([
        this.employees.assertExists(organisationId, employeeId),
        this.ratings.findPage(organisationId, employeeId, filters, window),
      ]);
    }
    return this.cursors.page(list, query, { rows, order: RATING_ORDER, total }, toRatingResponse);
  }
}

/** A score outside the skill's scale is 400 naming the range: one rule for single and bulk ratings. */
export function assertScoreInScale(score: number, skill: RatedSkill): void {
  if (score < skill.ratingScaleMin || score > skill.ratingScaleMax) {
    throw ValidationError.forField(
      'score',
      `score must be between ${skill.ratingScaleMin} and ${skill.ratingScaleMax} (the rating scale of ${skill.name})`,
    );
  }
}
