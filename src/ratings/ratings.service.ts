import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError, ValidationError } from '../common/errors';
import { Page } from '../common/pagination';
import { isUuid, newId } from '../common/uuid';
import { findEmployeeOrFail } from '../employees/employee-lookup';
import { parseIsoDateTime } from '../common/iso-date-time';
import { DomainEvents } from '../events/domain-events';
import { Skill } from '../skills/entities/skill.entity';
import { ListRatingsQuery } from './dto/list-ratings.query';
import { RateSkillDto } from './dto/rate-skill.dto';
import { RatingResponse } from './dto/rating.response';
import { Rating, RatingType } from './entities/rating.entity';

interface RatingRow {
  id: string;
  person_skill_id: string;
  skill_id: string;
  skill_name: string;
  score: number;
  rating_type: RatingType;
  comment: string | null;
  created_at: Date;
}

// A person skill deleted between our insert attempt and our read is created again; twice is plenty.
const PERSON_SKILL_ATTEMPTS = 3;

@Injectable()
export class RatingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Appends a rating of an employee on a skill, creating their PersonSkill first when absent, and
   * emits skill.rated, all in one transaction. Shared by PUT skills and POST ratings.
   */
  async rate(organisationId: string, employeeId: string, skillId: string, input: RateSkillDto): Promise<RatingResponse> {
    return this.dataSource.transaction(async (manager) => {
      const skill = await this.findRatedSkill(manager, organisationId, employeeId, skillId);
      assertScoreInScale(input.score, skill);
      const createdAt = new Date();
      const rating: RatingResponse = {
        ratingId: newId(),
        personSkillId: '',
        skillId: skill.id,
        skillName: skill.name,
        score: input.score,
        ratingType: input.ratingType,
        comment: input.comment ?? null,
        createdAt: createdAt.toISOString(),
      };
      rating.personSkillId = await this.insertRating(manager, organisationId, employeeId, rating, createdAt);
      await this.events.publish(manager, organisationId, 'skill.rated', { employeeId, rating }, createdAt);
      return rating;
    });
  }

  /** Newest first; the count query also proves the employee exists, so a page costs two queries. */
  async list(organisationId: string, employeeId: string, query: ListRatingsQuery): Promise<Page<RatingResponse>> {
    const from = query.from === undefined ? null : parseIsoDateTime(query.from);
    const to = query.to === undefined ? null : parseIsoDateTime(query.to);
    if (from && to && from > to) throw ValidationError.forField('from', 'from must not be later than to');

    const filters = ['r.organisation_id = $1', 'r.employee_id = $2'];
    const parameters: unknown[] = [organisationId, employeeId];
    const addFilter = (condition: string, value: unknown) => {
      parameters.push(value);
      filters.push(condition.replace('?', `$${parameters.length}`));
    };
    if (query.skillId !== undefined) {
      // A malformed id names no skill, like any unknown id: an empty list rather than a cast error.
      if (isUuid(query.skillId)) addFilter('r.skill_id = ?', query.skillId.toLowerCase());
      else filters.push('false');
    }
    if (query.ratingType !== undefined) addFilter('r.rating_type = ?', query.ratingType);
    if (from) addFilter('r.created_at >= ?', from);
    if (to) addFilter('r.created_at <= ?', to);
    const where = filters.join(' AND ');

    const [counted] = await this.dataSource.query<{ total: number }[]>(
      `SELECT (SELECT count(*)::int FROM ratings r WHERE ${where}) AS total
         FROM employees WHERE organisation_id = $1 AND id = $2`,
      parameters,
    );
    if (!counted) throw new NotFoundError('Employee');
    if (counted.total === 0) return Page.of([], 0, query);

    const rows = await this.dataSource.query<RatingRow[]>(
      `SELECT r.id, r.person_skill_id, r.skill_id, s.name AS skill_name, r.score, r.rating_type, r.comment, r.created_at
         FROM ratings r
         JOIN skills s ON s.id = r.skill_id
        WHERE ${where}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT $${parameters.length + 1} OFFSET $${parameters.length + 2}`,
      [...parameters, query.limit, query.offset],
    );
    return Page.of(rows.map(toRatingResponse), counted.total, query);
  }

  /**
   * The skill, key-share locked so it cannot be deleted before this rating commits, and the employee's
   * existence, in one statement. An unknown employee is reported before an unknown skill.
   */
  private async findRatedSkill(
    manager: EntityManager,
    organisationId: string,
    employeeId: string,
    skillId: string,
  ): Promise<RatedSkill> {
    const rows = isUuid(skillId)
      ? await manager.query<(RatedSkill & { employeeExists: boolean })[]>(
          `SELECT s.id, s.name, s.rating_scale_min AS "ratingScaleMin", s.rating_scale_max AS "ratingScaleMax",
                  EXISTS (SELECT 1 FROM employees e WHERE e.organisation_id = $1 AND e.id = $2) AS "employeeExists"
             FROM skills s
            WHERE s.organisation_id = $1 AND s.id = $3
              FOR KEY SHARE OF s`,
          [organisationId, employeeId, skillId.toLowerCase()],
        )
      : [];
    if (rows.length === 0) {
      await findEmployeeOrFail(manager, organisationId, employeeId);
      throw new NotFoundError('Skill');
    }
    const { employeeExists, ...skill } = rows[0];
    if (!employeeExists) throw new NotFoundError('Employee');
    return skill;
  }

  /**
   * Inserts the rating, creating the employee's PersonSkill when absent, in one statement; returns the
   * PersonSkill id. That statement cannot see a link a concurrent first rating committed after it began
   * (its insert then does nothing and its read finds nothing): that rare case takes the step-by-step path.
   */
  private async insertRating(
    manager: EntityManager,
    organisationId: string,
    employeeId: string,
    rating: RatingResponse,
    createdAt: Date,
  ): Promise<string> {
    const inserted = await manager.query<{ person_skill_id: string }[]>(
      `WITH created AS (
         INSERT INTO person_skills (id, organisation_id, employee_id, skill_id, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (employee_id, skill_id) DO NOTHING
         RETURNING id
       ), existing AS (
         -- Key-share lock: a concurrent DELETE of the link waits for this rating.
         SELECT id FROM person_skills WHERE employee_id = $3 AND skill_id = $4 FOR KEY SHARE
       ), link AS (
         SELECT id FROM created UNION ALL SELECT id FROM existing
       )
       INSERT INTO ratings (id, organisation_id, person_skill_id, employee_id, skill_id, score, rating_type, comment, created_at)
       SELECT $6, $2, link.id, $3, $4, $7, $8, $9, $5 FROM link
       RETURNING person_skill_id`,
      [newId(), organisationId, employeeId, rating.skillId, createdAt, rating.ratingId, rating.score, rating.ratingType, rating.comment],
    );
    if (inserted.length > 0) return inserted[0].person_skill_id;
    const personSkillId = await this.ensurePersonSkill(manager, organisationId, employeeId, rating.skillId);
    await manager.insert(Rating, {
      id: rating.ratingId,
      organisationId,
      personSkillId,
      employeeId,
      skillId: rating.skillId,
      score: rating.score,
      ratingType: rating.ratingType,
      comment: rating.comment,
      createdAt,
    });
    return personSkillId;
  }

  /**
   * The PersonSkill of (employee, skill), created when absent. Concurrent first ratings both try
   * the insert; the unique (employee_id, skill_id) index lets one win, and the other reads it.
   */
  private async ensurePersonSkill(
    manager: EntityManager,
    organisationId: string,
    employeeId: string,
    skillId: string,
  ): Promise<string> {
    for (let attempt = 0; attempt < PERSON_SKILL_ATTEMPTS; attempt++) {
      const inserted = await manager.query<{ id: string }[]>(
        `INSERT INTO person_skills (id, organisation_id, employee_id, skill_id, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (employee_id, skill_id) DO NOTHING
         RETURNING id`,
        [newId(), organisationId, employeeId, skillId, new Date()],
      );
      if (inserted.length > 0) return inserted[0].id;
      // Key-share lock: a concurrent DELETE of the link waits for this rating (or we see it gone and retry).
      const existing = await manager.query<{ id: string }[]>(
        `SELECT id FROM person_skills WHERE employee_id = $1 AND skill_id = $2 FOR KEY SHARE`,
        [employeeId, skillId],
      );
      if (existing.length > 0) return existing[0].id;
    }
    throw new Error(`PersonSkill of employee ${employeeId} on skill ${skillId} kept vanishing`);
  }
}

type RatedSkill = Pick<Skill, 'id' | 'name' | 'ratingScaleMin' | 'ratingScaleMax'>;

function assertScoreInScale(score: number, skill: RatedSkill): void {
  if (score < skill.ratingScaleMin || score > skill.ratingScaleMax) {
    throw ValidationError.forField(
      'score',
      `score must be between ${skill.ratingScaleMin} and ${skill.ratingScaleMax} (the rating scale of ${skill.name})`,
    );
  }
}

function toRatingResponse(row: RatingRow): RatingResponse {
  return {
    ratingId: row.id,
    personSkillId: row.person_skill_id,
    skillId: row.skill_id,
    skillName: row.skill_name,
    score: row.score,
    ratingType: row.rating_type,
    comment: row.comment,
    createdAt: row.created_at.toISOString(),
  };
}
