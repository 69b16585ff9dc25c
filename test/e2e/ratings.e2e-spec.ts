import { Client } from 'pg';
import { newId } from '../../src/database/uuid';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { PersonSkillResponse, RatingResponse } from '../../src/ratings/dto/rating.response';
import { SkillResponse } from '../../src/skills/dto/skill.response';
import { dataSourceOf } from '../support/app';
import { EventRecorder } from '../support/event-recorder';
import { createEmployee, createSkill, rate } from '../support/people.factory';
import { itIfPostgres } from '../support/requirements';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

describe('ratings', () => {
  const suite = useTestApp();
  let events: EventRecorder;
  beforeAll(async () => {
    events = EventRecorder.attach(suite.app);
  });
  afterAll(async () => {
    events.detach();
  });

  const { get, post } = suite.api;

  describe('POST /employees/{id}/ratings', () => {
    it('creates the PersonSkill and a Rating, answers 201 with it and emits skill.rated with it', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const response = await post<RatingResponse>(`/employees/${employee.id}/ratings`, {
        skillId: skill.id,
        score: 5,
        ratingType: 'SELF_ASSESMENT',
        comment: 'I am great',
      }).expect(201);
      expect(response.body).toEqual({
        success: true,
        data: {
          ratingId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          personSkillId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          skillId: skill.id,
          skillName: skill.name,
          score: 5,
          ratingType: 'SELF_ASSESMENT',
          comment: 'I am great',
          createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        },
      });
      const rating = response.body.data;
      expect(events.of(suite.tenant.organisationId)).toEqual([
        {
          name: 'skill.rated',
          data: { employeeId: employee.id, rating },
          occurredAt: rating.createdAt,
          inTransaction: true,
        },
      ]);
      const skills = await get<PersonSkillResponse[]>(`/employees/${employee.id}/skills`).expect(200);
      expect(skills.body.data).toEqual([
        {
          personSkillId: rating.personSkillId,
          skillId: skill.id,
          skillName: skill.name,
          latestRating: {
            ratingId: rating.ratingId,
            score: 5,
            ratingType: 'SELF_ASSESMENT',
            comment: 'I am great',
            createdAt: rating.createdAt,
          },
        },
      ]);
    });

    it('accepts a skillId in upper case', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const response = await post<RatingResponse>(`/employees/${employee.id}/ratings`, {
        skillId: skill.id.toUpperCase(),
        score: 1,
        ratingType: 'MANAGER_EVALUATION',
      }).expect(201);
      expect(response.body.data.skillId).toBe(skill.id);
    });

    it.each([
      ['an unknown skillId', UNKNOWN_ID],
      ['a malformed skillId', 'not-a-uuid'],
      ['an empty skillId', ''],
    ])('answers %s in the body with 404 and emits nothing', async (_case, skillId) => {
      const employee = await createEmployee(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const response = await post<RatingResponse>(`/employees/${employee.id}/ratings`, {
        skillId,
        score: 1,
        ratingType: 'LLM_RATING',
      }).expect(404);
      expect(response.body).toEqual({
        success: false,
        error: { code: 'NOT_FOUND', message: expect.stringContaining('Skill') },
      });
      expect(events.of(suite.tenant.organisationId)).toEqual([]);
    });

    it.each([
      ['skillId not a string', { skillId: 7 }, 'skillId'],
      ['skillId missing', { skillId: undefined }, 'skillId'],
      ['score a string', { score: '3' }, 'score'],
      ['ratingType unknown', { ratingType: 'PEER_REVIEW' }, 'ratingType'],
      ['comment not a string', { comment: 5 }, 'comment'],
    ])('rejects %s with 400', async (_case, fields, field) => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const body = { skillId: skill.id, score: 3, ratingType: 'LLM_RATING', ...fields };
      const response = await post(`/employees/${employee.id}/ratings`, body).expect(400);
      expect(response.body.error.details[0].field).toBe(field);
    });

    it('refuses a score outside the default 0..5 scale with 400 naming the range, creating no PersonSkill', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      for (const score of [-1, 6]) {
        const response = await post<RatingResponse>(`/employees/${employee.id}/ratings`, {
          skillId: skill.id,
          score,
          ratingType: 'LLM_RATING',
        }).expect(400);
        expect(response.body.error.message).toContain('between 0 and 5');
      }
      expect((await get<PersonSkillResponse[]>(`/employees/${employee.id}/skills`)).body.data).toEqual([]);
    });

    it('accepts comment null as no comment', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const rating = await rate(suite.app, suite.tenant, employee.id, skill.id, { comment: null });
      expect(rating.comment).toBeNull();
    });

    it('gives concurrent first ratings of one skill one PersonSkill, and keeps every rating', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const responses = await Promise.all(
        [0, 1, 2, 3, 4, 5, 0, 1].map((score) =>
          post<RatingResponse>(`/employees/${employee.id}/ratings`, {
            skillId: skill.id,
            score,
            ratingType: 'LLM_RATING',
          }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
      expect(new Set(responses.map((response) => response.body.data.personSkillId)).size).toBe(1);
      const listed = await get<RatingResponse[]>(`/employees/${employee.id}/ratings?limit=100`).expect(200);
      expect(listed.body.meta.total).toBe(8);
    });

    itIfPostgres(
      'writes a first rating on the link another transaction committed meanwhile, on a second try',
      async () => {
        const employee = await createEmployee(suite.app, suite.tenant);
        const skill = await createSkill(suite.app, suite.tenant);
        const other = new Client({ connectionString: process.env.TEST_DATABASE_URL });
        await other.connect();
        try {
          await other.query('BEGIN');
          const [link] = (
            await other.query<{ id: string }>(
              `INSERT INTO person_skills (id, organisation_id, employee_id, skill_id, created_at)
             VALUES ($1, $2, $3, $4, now()) RETURNING id`,
              [newId(), suite.tenant.organisationId, employee.id, skill.id],
            )
          ).rows;
          const answer = post<RatingResponse>(`/employees/${employee.id}/ratings`, {
            skillId: skill.id,
            score: 4,
            ratingType: 'LLM_RATING',
          }).then((response) => response);
          // The rating's statement waits on the uncommitted link; once it commits, that statement cannot see it.
          await waitUntil(async () => {
            // Asked outside `other`, whose transaction would keep its first snapshot of pg_stat_activity.
            const [{ waiting }] = await dataSourceOf(suite.app).query<{ waiting: number }[]>(
              `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'
                AND query LIKE 'SELECT * FROM insert_rating_if_rateable%'`,
            );
            return waiting > 0;
          }, 'the rating waits on the link');
          await other.query('COMMIT');
          const response = await answer;
          expect(response.status).toBe(201);
          expect(response.body.data).toMatchObject({ personSkillId: link.id, skillId: skill.id, score: 4 });
          const skills = (await get<PersonSkillResponse[]>(`/employees/${employee.id}/skills`)).body.data;
          expect(skills).toEqual([
            expect.objectContaining({ personSkillId: link.id, latestRating: expect.objectContaining({ score: 4 }) }),
          ]);
        } finally {
          await other.end();
        }
      },
    );

    it('answers an unknown employee with 404 Employee before looking at the skill', async () => {
      const response = await post<RatingResponse>(`/employees/${UNKNOWN_ID}/ratings`, {
        skillId: UNKNOWN_ID,
        score: 1,
        ratingType: 'LLM_RATING',
      });
      expect(response.status).toBe(404);
      expect(response.body.error.message).toMatch(/Employee/);
      const known = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const unknownEmployee = await post<RatingResponse>(`/employees/${UNKNOWN_ID}/ratings`, {
        skillId: skill.id,
        score: 1,
        ratingType: 'LLM_RATING',
      });
      expect(unknownEmployee.body.error.message).toMatch(/Employee/);
      const unknownSkill = await post<RatingResponse>(`/employees/${known.id}/ratings`, {
        skillId: UNKNOWN_ID,
        score: 1,
        ratingType: 'LLM_RATING',
      });
      expect(unknownSkill.status).toBe(404);
      expect(unknownSkill.body.error.message).toMatch(/Skill/);
    });

    it.each([UNKNOWN_ID, 'nope'])('answers employee %s with 404', async (id) => {
      const skill = await createSkill(suite.app, suite.tenant);
      await post(`/employees/${id}/ratings`, { skillId: skill.id, score: 1, ratingType: 'LLM_RATING' }).expect(404);
    });
  });

  describe('GET /employees/{id}/ratings', () => {
    let employee: EmployeeResponse;
    let java: SkillResponse;
    let go: SkillResponse;
    let ratings: RatingResponse[];

    beforeEach(async () => {
      employee = await createEmployee(suite.app, suite.tenant);
      java = await createSkill(suite.app, suite.tenant);
      go = await createSkill(suite.app, suite.tenant);
      ratings = [];
      ratings.push(
        await rate(suite.app, suite.tenant, employee.id, java.id, { score: 1, ratingType: 'SELF_ASSESMENT' }),
      );
      ratings.push(
        await rate(suite.app, suite.tenant, employee.id, go.id, { score: 2, ratingType: 'MANAGER_EVALUATION' }),
      );
      ratings.push(await rate(suite.app, suite.tenant, employee.id, java.id, { score: 3, ratingType: 'LLM_RATING' }));
      ratings.push(
        await rate(suite.app, suite.tenant, employee.id, java.id, { score: 4, ratingType: 'MANAGER_EVALUATION' }),
      );
      const other = await createEmployee(suite.app, suite.tenant);
      await rate(suite.app, suite.tenant, other.id, java.id);
    });

    const list = async (query = '') =>
      (await get<RatingResponse[]>(`/employees/${employee.id}/ratings${query}`).expect(200)).body;

    it('lists the employee’s Ratings newest first with meta', async () => {
      const body = await list();
      expect(body.data).toEqual([...ratings].reverse());
      expect(body.meta).toEqual({
        total: 4,
        page: 1,
        limit: 20,
        totalPages: 1,
        hasNextPage: false,
        hasPrevPage: false,
        nextCursor: null,
      });
      const page = await list('?limit=3&page=2');
      expect(page.data).toEqual([ratings[0]]);
      expect(page.meta).toMatchObject({ total: 4, totalPages: 2, hasPrevPage: true });
    });

    it('orders ratings of the same instant by id, descending', async () => {
      const instant = new Date('2030-01-01T00:00:00.000Z');
      const ids = [newId(), newId()];
      for (const id of ids) {
        await dataSourceOf(suite.app).query(
          `INSERT INTO ratings (id, organisation_id, person_skill_id, employee_id, skill_id, score, rating_type, created_at)
           VALUES ($1, $2, $3, $4, $5, 1, 'LLM_RATING', $6)`,
          [id, suite.tenant.organisationId, ratings[0].personSkillId, employee.id, java.id, instant],
        );
      }
      const body = await list('?limit=2');
      expect(body.data.map((r) => r.ratingId)).toEqual([ids[1], ids[0]]);
    });

    it('filters by skillId; an unknown or malformed skill id gives an empty list', async () => {
      const body = await list(`?skillId=${java.id}`);
      expect(body.data.map((r) => r.score)).toEqual([4, 3, 1]);
      expect(body.meta.total).toBe(3);
      const unknown = await list(`?skillId=${UNKNOWN_ID}`);
      expect(unknown).toEqual({
        success: true,
        data: [],
        meta: { total: 0, page: 1, limit: 20, totalPages: 0, hasNextPage: false, hasPrevPage: false, nextCursor: null },
      });
      expect((await list('?skillId=nope')).data).toEqual([]);
    });

    it('filters by each of the three ratingType spellings and refuses any other with 400', async () => {
      expect((await list('?ratingType=MANAGER_EVALUATION')).data.map((r) => r.score)).toEqual([4, 2]);
      expect((await list('?ratingType=SELF_ASSESMENT')).data.map((r) => r.score)).toEqual([1]);
      expect((await list('?ratingType=LLM_RATING')).data.map((r) => r.score)).toEqual([3]);
      for (const value of ['SELF_ASSESSMENT', 'llm_rating', '']) {
        const response = await get(`/employees/${employee.id}/ratings?ratingType=${value}`).expect(400);
        expect(response.body.error.details[0].field).toBe('ratingType');
      }
    });

    it('filters by from and to, both inclusive, in any offset, with a returned createdAt matching itself', async () => {
      // Spread the four ratings over four days so the bounds are exact.
      for (const [day, rating] of ratings.entries()) {
        await dataSourceOf(suite.app).query(`UPDATE ratings SET created_at = $1 WHERE id = $2`, [
          new Date(Date.UTC(2026, 0, day + 1)),
          rating.ratingId,
        ]);
      }
      const scores = async (query: string) => (await list(query)).data.map((r) => r.score);
      expect(await scores('?from=2026-01-02&to=2026-01-03T00:00:00.000Z')).toEqual([3, 2]);
      expect(
        await scores(`?from=${encodeURIComponent('2026-01-02T01:00:00+01:00')}&to=2026-01-02T23:59:59.999Z`),
      ).toEqual([2]);
      expect(await scores('?from=2026-01-04')).toEqual([4]);
      expect(await scores('?to=2026-01-01T00:00:00Z')).toEqual([1]);
      const returned = (await list('?skillId=' + go.id)).data[0].createdAt;
      expect(await scores(`?from=${returned}&to=${returned}`)).toEqual([2]);
      expect((await list('?from=2026-01-02&to=2026-01-03&ratingType=LLM_RATING')).meta.total).toBe(1);
    });

    it.each([
      ['from not a date', '?from=yesterday', 'from'],
      ['to an impossible date', '?to=2026-02-30', 'to'],
      ['from later than to', '?from=2026-02-01&to=2026-01-31', 'from'],
      ['an unknown parameter', '?sort=asc', 'sort'],
      ['page 0', '?page=0', 'page'],
    ])('rejects %s with 400', async (_case, query, field) => {
      const response = await get(`/employees/${employee.id}/ratings${query}`).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details[0].field).toBe(field);
    });

    it.each([UNKNOWN_ID, 'nope'])('answers employee %s with 404', async (id) => {
      const response = await get(`/employees/${id}/ratings`).expect(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    });
  });
});
