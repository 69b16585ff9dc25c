import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { SqlConditions } from '../database/sql-conditions';
import { isUuid, newId } from '../database/uuid';
import { ListOrder, PageWindow, orderByColumns } from '../pagination/cursor';
import { Skill } from '../skills/entities/skill.entity';
import { RatingType } from '../skills/rating-types';
import { PersonSkillRecord, RatingRecord } from './dto/rating.response';

/** Which of an employee's ratings a list shows. */
export interface RatingFilters {
  /** Any string: one that is not a UUID names no skill. */
  skillId?: string;
  ratingType?: RatingType;
  /** Inclusive bounds on createdAt. */
  from?: Date;
  to?: Date;
}

/** What a rating needs of its skill: the scale it must fall in, and the name it is returned with. */
export type RatedSkill = Pick<Skill, 'id' | 'name' | 'ratingScaleMin' | 'ratingScaleMax'>;

/** Latest rating score, by employee id, then by skill id. */
export type LatestScores = Map<string, Map<string, number>>;

/** A rating about to be written; its PersonSkill is found or created by the insert. */
export type NewRating = Omit<RatingRecord, 'personSkillId' | 'skillName'>;

/** What writing a NewRating tells of it beside the rating itself. */
export type WrittenRating = Pick<RatingRecord, 'personSkillId' | 'skillName'>;

/**
 * Whether `rating` is later than `than` in the order that decides a person skill's latest rating: createdAt,
 * then the larger id (the trigger person_skills_keep_latest_rating compares the same, uuids byte by byte as
 * their lower-case text sorts).
 */
function isLater(rating: NewRating, than: NewRating): boolean {
  const difference = rating.createdAt.getTime() - than.createdAt.getTime();
  return difference !== 0 ? difference > 0 : rating.ratingId.toLowerCase() > than.ratingId.toLowerCase();
}

/**
 * The latest rating a person skill keeps (latest_rating_id: the trigger person_skills_keep_latest_rating decides
 * which, see sql/), joined as `latest`, under LatestRatingRow's names.
 */
export const LATEST_RATING_COLUMNS = `latest.id AS "ratingId", latest.score, latest.rating_type AS "ratingType",
  latest.comment, latest.created_at AS "ratedAt"`;

/** A row's LATEST_RATING_COLUMNS: all null when the person skill was never rated. */
export interface LatestRatingRow {
  ratingId: string | null;
  score: number | null;
  ratingType: RatingType | null;
  comment: string | null;
  ratedAt: Date | null;
}

/** The latest rating of a row read with LATEST_RATING_COLUMNS; null when never rated. */
export function latestRatingOf({ ratingId, score, ratingType, comment, ratedAt }: LatestRatingRow) {
  return ratingId === null ? null : { ratingId, score: score!, ratingType: ratingType!, comment, createdAt: ratedAt! };
}

interface PersonSkillRow extends LatestRatingRow {
  personSkillId: string;
  skillId: string;
  skillName: string;
}

/** The order of an employee's ratings: newest first, on ratings_employee_list_idx. */
export const RATING_ORDER: ListOrder<RatingRecord> = {
  columns: ['r.created_at', 'r.id'],
  descending: true,
  keyOf: (rating) => [rating.createdAt, rating.ratingId],
};

/** All SQL of person skills (the links of employees to skills) and their ratings. */
@Injectable()
export class RatingsRepository {
  constructor(private readonly database: Database) {}

  /**
   * How many of the employee's ratings pass the filters, in a statement that also proves the employee
   * exists: null when the organisation has no such employee.
   */
  async count(
    organisationId: string,
    employeeId: string,
    filters: RatingFilters,
    manager?: EntityManager,
  ): Promise<number | null> {
    const where = this.conditions(organisationId, employeeId, filters);
    // $1 and $2 are the organisation and the employee: the conditions bind them first.
    const [counted] = await this.database.manager(manager).query<{ total: number }[]>(
      `SELECT (SELECT count(*)::int FROM ratings r WHERE ${where.sql}) AS total
         FROM employees WHERE organisation_id = $1 AND id = $2`,
      where.parameters,
    );
    return counted ? counted.total : null;
  }

  /** One window of the employee's ratings that pass the filters, newest first (createdAt, then id). */
  async findPage(
    organisationId: string,
    employeeId: string,
    filters: RatingFilters,
    window: PageWindow,
    manager?: EntityManager,
  ): Promise<RatingRecord[]> {
    const where = this.conditions(organisationId, employeeId, filters);
    where.after(RATING_ORDER.columns, RATING_ORDER.descending, window.after);
    const page = where.page(window.fetch, window.offset);
    return this.database.manager(manager).query<RatingRecord[]>(
      `SELECT r.id AS "ratingId", r.person_skill_id AS "personSkillId", r.skill_id AS "skillId",
              s.name AS "skillName", r.score, r.rating_type AS "ratingType", r.comment, r.created_at AS "createdAt"
         FROM ratings r
         JOIN skills s ON s.id = r.skill_id
        WHERE ${where.sql}
        ORDER BY ${orderByColumns(RATING_ORDER)}
        ${page.sql}`,
      page.parameters,
    );
  }

  /**
   * What insertIfRateable checks, read without locks to explain why it wrote nothing, in one statement: whether
   * the organisation has the employee, and its skill `skillId` (null when it has none; a malformed id names none).
   */
  async findRateability(
    organisationId: string,
    employeeId: string,
    skillId: string,
    manager?: EntityManager,
  ): Promise<{ employeeExists: boolean; skill: RatedSkill | null }> {
    const [row] = await this.database.manager(manager).query<(RatedSkill & { employeeExists: boolean })[]>(
      `SELECT EXISTS (SELECT 1 FROM employees e WHERE e.organisation_id = $1 AND e.id = $2) AS "employeeExists",
              s.id, s.name, s.rating_scale_min AS "ratingScaleMin", s.rating_scale_max AS "ratingScaleMax"
         FROM (VALUES (1)) AS one
         LEFT JOIN skills s ON s.organisation_id = $1 AND s.id = $3::uuid`,
      [organisationId, employeeId, isUuid(skillId) ? skillId.toLowerCase() : null],
    );
    const { employeeExists, ...skill } = row;
    return { employeeExists, skill: skill.id === null ? null : skill };
  }

  /** The organisation's skills with these ids, key-share locked so none can be deleted before the ratings commit. */
  async findSkillsToRate(organisationId: string, ids: string[], manager?: EntityManager): Promise<RatedSkill[]> {
    if (ids.length === 0) return [];
    return this.database.manager(manager).query<RatedSkill[]>(
      `SELECT s.id, s.name, s.rating_scale_min AS "ratingScaleMin", s.rating_scale_max AS "ratingScaleMax"
         FROM skills s
        WHERE s.organisation_id = $1 AND s.id = ANY ($2::uuid[])
          FOR KEY SHARE OF s`,
      [organisationId, ids],
    );
  }

  /**
   * Writes many checked ratings in one statement: the missing PersonSkills in one multi-row insert, then every
   * rating. Answers the PersonSkill id of each rating it wrote, by rating id. A rating whose PersonSkill a
   * concurrent transaction committed after the statement began is not written (the statement sees neither
   * its own insert nor that row): a second statement, which sees it, writes it.
   */
  async insertMany(
    organisationId: string,
    ratings: (NewRating & { employeeId: string })[],
    manager?: EntityManager,
  ): Promise<Map<string, string>> {
    if (ratings.length === 0) return new Map();
    // Each pair's latest rating of the batch: a link created here holds it already (see insertIfRateable).
    const latestOfPair = new Map<string, NewRating & { employeeId: string }>();
    for (const rating of ratings) {
      const pair = `${rating.employeeId}/${rating.skillId}`;
      const kept = latestOfPair.get(pair);
      if (!kept || isLater(rating, kept)) latestOfPair.set(pair, rating);
    }
    const links = [...latestOfPair.values()];
    const rows = await this.database.manager(manager).query<{ ratingId: string; personSkillId: string }[]>(
      `WITH pair AS (
         SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $13::uuid[], $14::int[], $15::timestamptz[])
                    AS p(id, employee_id, skill_id, latest_rating_id, latest_score, latest_rated_at)
       ), created AS (
         INSERT INTO person_skills (id, organisation_id, employee_id, skill_id, created_at,
                                    latest_rating_id, latest_score, latest_rated_at)
         SELECT pair.id, $1, pair.employee_id, pair.skill_id, $5,
                pair.latest_rating_id, pair.latest_score, pair.latest_rated_at
           FROM pair
         ON CONFLICT (employee_id, skill_id) DO NOTHING
         RETURNING id, employee_id, skill_id
       ), existing AS (
         -- Key-share lock: a concurrent DELETE of the link waits for these ratings.
         SELECT ps.id, ps.employee_id, ps.skill_id FROM person_skills ps
           JOIN pair ON ps.employee_id = pair.employee_id AND ps.skill_id = pair.skill_id
          WHERE ps.organisation_id = $1
            FOR KEY SHARE OF ps
       ), link AS (
         SELECT * FROM created UNION ALL SELECT * FROM existing
       )
       INSERT INTO ratings (id, organisation_id, person_skill_id, employee_id, skill_id, score, rating_type, comment,
                            created_at)
       SELECT v.id, $1, link.id, v.employee_id, v.skill_id, v.score, v.rating_type, v.comment, v.created_at
         FROM unnest($6::uuid[], $7::uuid[], $8::uuid[], $9::int[], $10::text[], $11::text[], $12::timestamptz[])
              AS v(id, employee_id, skill_id, score, rating_type, comment, created_at)
         JOIN link ON link.employee_id = v.employee_id AND link.skill_id = v.skill_id
       RETURNING id AS "ratingId", person_skill_id AS "personSkillId"`,
      [
        organisationId,
        links.map(() => newId()),
        links.map((link) => link.employeeId),
        links.map((link) => link.skillId),
        ratings[0].createdAt,
        ratings.map((rating) => rating.ratingId),
        ratings.map((rating) => rating.employeeId),
        ratings.map((rating) => rating.skillId),
        ratings.map((rating) => rating.score),
        ratings.map((rating) => rating.ratingType),
        ratings.map((rating) => rating.comment),
        ratings.map((rating) => rating.createdAt),
        links.map((link) => link.ratingId),
        links.map((link) => link.score),
        links.map((link) => link.createdAt),
      ],
    );
    return new Map(rows.map((row) => [row.ratingId, row.personSkillId]));
  }

  /**
   * The one write of a rating: creates the employee's PersonSkill when absent, in one statement that also checks
   * it: only when the organisation's employee exists and its skill `rating.skillId` takes the score, key-share
   * locking the skill so it cannot be deleted before the rating commits. Answers the PersonSkill id and the
   * skill's name; null when it wrote nothing: a check failed (findRateability says which), or the statement could
   * not see a link a concurrent first rating committed after it began (its insert then does nothing and its read
   * finds nothing), which a second statement sees. The statement is the function `insert_rating_if_rateable`
   * (sql/insert-rating-if-rateable.sql), whose plan the database keeps.
   */
  async insertIfRateable(
    organisationId: string,
    employeeId: string,
    rating: NewRating,
    manager?: EntityManager,
  ): Promise<WrittenRating | null> {
    if (!isUuid(rating.skillId)) return null;
    const [inserted] = await this.database
      .manager(manager)
      .query<WrittenRating[]>('SELECT * FROM insert_rating_if_rateable($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
        newId(),
        organisationId,
        employeeId,
        rating.skillId,
        rating.createdAt,
        rating.ratingId,
        rating.score,
        rating.ratingType,
        rating.comment,
      ]);
    return inserted ?? null;
  }

  /** The employee's skills with the latest rating of each, in one query, ordered by skill name. */
  async findPersonSkills(
    organisationId: string,
    employeeId: string,
    manager?: EntityManager,
  ): Promise<PersonSkillRecord[]> {
    const rows = await this.database.manager(manager).query<PersonSkillRow[]>(
      `SELECT ps.id AS "personSkillId", s.id AS "skillId", s.name AS "skillName", ${LATEST_RATING_COLUMNS}
         FROM person_skills ps
         JOIN skills s ON s.id = ps.skill_id
         LEFT JOIN ratings latest ON latest.id = ps.latest_rating_id
        WHERE ps.organisation_id = $1 AND ps.employee_id = $2
        ORDER BY skill_name_order(s.name), s.id`,
      [organisationId, employeeId],
    );
    return rows.map((row) => ({
      personSkillId: row.personSkillId,
      skillId: row.skillId,
      skillName: row.skillName,
      latestRating: latestRatingOf(row),
    }));
  }

  /**
   * The latest rating score of each of the employees on each of the skills, in one query: the (employee,
   * skill) link is found by its unique index, and carries its kept latest score.
   */
  async latestScores(
    organisationId: string,
    employeeIds: string[],
    skillIds: string[],
    manager?: EntityManager,
  ): Promise<LatestScores> {
    const scores: LatestScores = new Map();
    if (employeeIds.length === 0 || skillIds.length === 0) return scores;
    const rows = await this.database.manager(manager).query<{ employeeId: string; skillId: string; score: number }[]>(
      `SELECT ps.employee_id AS "employeeId", ps.skill_id AS "skillId", ps.latest_score AS score
         FROM person_skills ps
        WHERE ps.organisation_id = $1 AND ps.employee_id = ANY($2::uuid[]) AND ps.skill_id = ANY($3::uuid[])
          AND ps.latest_score IS NOT NULL`,
      [organisationId, employeeIds, skillIds],
    );
    for (const { employeeId, skillId, score } of rows) {
      const ofEmployee = scores.get(employeeId) ?? new Map<string, number>();
      ofEmployee.set(skillId, score);
      scores.set(employeeId, ofEmployee);
    }
    return scores;
  }

  /** The id of the employee's PersonSkill on the skill, locked so no rating slips in before it is deleted. */
  async lockPersonSkill(
    organisationId: string,
    employeeId: string,
    skillId: string,
    manager?: EntityManager,
  ): Promise<string | null> {
    const [row] = await this.database
      .manager(manager)
      .query<{ id: string }[]>(
        `SELECT id FROM person_skills WHERE organisation_id = $1 AND employee_id = $2 AND skill_id = $3 FOR UPDATE`,
        [organisationId, employeeId, skillId],
      );
    return row?.id ?? null;
  }

  async countOfPersonSkill(organisationId: string, personSkillId: string, manager?: EntityManager): Promise<number> {
    const [{ count }] = await this.database
      .manager(manager)
      .query<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM ratings WHERE organisation_id = $1 AND person_skill_id = $2`,
        [organisationId, personSkillId],
      );
    return count;
  }

  /** Deletes the PersonSkill and, by cascade, all its ratings. */
  async deletePersonSkill(organisationId: string, personSkillId: string, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`DELETE FROM person_skills WHERE organisation_id = $1 AND id = $2`, [organisationId, personSkillId]);
  }

  /**
   * Up to `limit` of the employee's ratings after `after`, oldest first (createdAt, then id; ratings_employee_list_idx
   * read backwards): the personal-data export reads every rating page by page.
   */
  async findOldestFirst(
    organisationId: string,
    employeeId: string,
    after: Pick<RatingRecord, 'createdAt' | 'ratingId'> | null,
    limit: number,
    manager?: EntityManager,
  ): Promise<RatingRecord[]> {
    return this.database.manager(manager).query<RatingRecord[]>(
      `SELECT r.id AS "ratingId", r.person_skill_id AS "personSkillId", r.skill_id AS "skillId",
              s.name AS "skillName", r.score, r.rating_type AS "ratingType", r.comment, r.created_at AS "createdAt"
         FROM ratings r
         JOIN skills s ON s.id = r.skill_id
        WHERE r.organisation_id = $1 AND r.employee_id = $2
          AND ($3::timestamptz IS NULL OR (r.created_at, r.id) > ($3::timestamptz, $4::uuid))
        ORDER BY r.created_at, r.id
        LIMIT $5`,
      [organisationId, employeeId, after?.createdAt ?? null, after?.ratingId ?? null, limit],
    );
  }

  /**
   * Erasure: deletes every rating of the employee, comments and all, and their links to skills (so each skill's
   * employeeCount drops).
   */
  async deleteAllOfEmployee(organisationId: string, employeeId: string, manager: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`DELETE FROM ratings WHERE organisation_id = $1 AND employee_id = $2`, [organisationId, employeeId]);
    await this.database
      .manager(manager)
      .query(`DELETE FROM person_skills WHERE organisation_id = $1 AND employee_id = $2`, [organisationId, employeeId]);
  }

  /** The list's conditions; the organisation and the employee are bound first ($1, $2). */
  private conditions(organisationId: string, employeeId: string, filters: RatingFilters): SqlConditions {
    const where = new SqlConditions().and('r.organisation_id = ?', organisationId).and('r.employee_id = ?', employeeId);
    if (filters.skillId !== undefined) {
      // A malformed id names no skill, like any unknown id: an empty list rather than a cast error.
      if (isUuid(filters.skillId)) where.and('r.skill_id = ?', filters.skillId.toLowerCase());
      else where.and('false');
    }
    if (filters.ratingType !== undefined) where.and('r.rating_type = ?', filters.ratingType);
    if (filters.from) where.and('r.created_at >= ?', filters.from);
    if (filters.to) where.and('r.created_at <= ?', filters.to);
    return where;
  }

  /** How many skills each of the employees has (person skills, rated or not), by employee id; none: absent. */
  async skillCountsOf(
    organisationId: string,
    employeeIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, number>> {
    if (employeeIds.length === 0) return new Map();
    const rows = await this.database.manager(manager).query<{ employeeId: string; skills: number }[]>(
      `SELECT employee_id AS "employeeId", count(*)::int AS skills
         FROM person_skills
        WHERE organisation_id = $1 AND employee_id = ANY ($2::uuid[])
        GROUP BY employee_id`,
      [organisationId, employeeIds],
    );
    return new Map(rows.map((row) => [row.employeeId, row.skills]));
  }

  /**
   * The employee's rating history on each skill they were rated on, in one query: the latest `perSkill` ratings
   * of each skill (ratings_employee_skill_list_idx), oldest first, with how many there are in all and the skill's
   * scale. Ordered by skill id; a skill never rated has no history.
   */
  async historyOfEmployee(
    organisationId: string,
    employeeId: string,
    perSkill: number,
    manager?: EntityManager,
  ): Promise<RatingHistory[]> {
    const rows = await this.database
      .manager(manager)
      .query<Array<Omit<RatingHistory, 'ratings'> & RatingHistory['ratings'][number]>>(
        `SELECT h.skill_id AS "skillId", s.rating_scale_min AS "ratingScaleMin", s.rating_scale_max AS "ratingScaleMax",
              h.total::int AS total, h.id AS "ratingId", h.score, h.rating_type AS "ratingType",
              h.created_at AS "createdAt"
         FROM (SELECT r.id, r.skill_id, r.score, r.rating_type, r.created_at,
                      row_number() OVER (PARTITION BY r.skill_id ORDER BY r.created_at DESC, r.id DESC) AS place,
                      count(*) OVER (PARTITION BY r.skill_id) AS total
                 FROM ratings r
                WHERE r.organisation_id = $1 AND r.employee_id = $2) h
         JOIN skills s ON s.organisation_id = $1 AND s.id = h.skill_id
        WHERE h.place <= $3
        ORDER BY h.skill_id, h.created_at, h.id`,
        [organisationId, employeeId, perSkill],
      );
    const histories = new Map<string, RatingHistory>();
    for (const { skillId, ratingScaleMin, ratingScaleMax, total, ...rating } of rows) {
      const history = histories.get(skillId) ?? { skillId, ratingScaleMin, ratingScaleMax, total, ratings: [] };
      history.ratings.push(rating);
      histories.set(skillId, history);
    }
    return [...histories.values()];
  }
}

/** An employee's ratings of one skill, as a chart of them needs them. */
export interface RatingHistory {
  skillId: string;
  /** The skill's scale, which every score falls in. */
  ratingScaleMin: number;
  ratingScaleMax: number;
  /** How many ratings the employee has on the skill; `ratings` may hold only the latest of them. */
  total: number;
  /** Oldest first. */
  ratings: Array<Pick<RatingRecord, 'ratingId' | 'score' | 'ratingType' | 'createdAt'>>;
}
