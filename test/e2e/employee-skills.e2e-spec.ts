import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { EmployeeDetailResponse } from '../../src/employees/dto/employee.response';
import { DeletedResponse } from '../../src/http/deleted.response';
import { PersonSkillResponse, RatingResponse } from '../../src/ratings/dto/rating.response';
import { EventRecorder } from '../support/event-recorder';
import { createEmployee, createSkill, rate, unique } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

describe('employee skills', () => {
  const suite = useTestApp();
  let events: EventRecorder;
  beforeAll(async () => {
    events = EventRecorder.attach(suite.app);
  });
  afterAll(async () => {
    events.detach();
  });

  const { get, put, del } = suite.api;

  describe('PUT /employees/{id}/skills/{skillId}', () => {
    it('creates the PersonSkill with its first rating and emits skill.rated with the Rating', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const response = await put<PersonSkillResponse>(`/employees/${employee.id}/skills/${skill.id}`, {
        score: 4,
        ratingType: 'MANAGER_EVALUATION',
        comment: 'Solid',
      }).expect(200);
      const latestRating = {
        ratingId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        score: 4,
        ratingType: 'MANAGER_EVALUATION',
        comment: 'Solid',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      };
      expect(response.body).toEqual({
        success: true,
        data: {
          personSkillId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          skillId: skill.id,
          skillName: skill.name,
          latestRating,
        },
      });
      const { personSkillId, latestRating: added } = response.body.data;
      expect(events.of(suite.tenant.organisationId)).toEqual([
        {
          name: 'skill.rated',
          data: {
            employeeId: employee.id,
            rating: { ...added, personSkillId, skillId: skill.id, skillName: skill.name },
          },
          occurredAt: added!.createdAt,
          inTransaction: true,
        },
      ]);
    });

    it('appends a rating to the existing PersonSkill, never updating the earlier one', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const first = await put<PersonSkillResponse>(`/employees/${employee.id}/skills/${skill.id}`, {
        score: 1,
        ratingType: 'SELF_ASSESMENT',
      }).expect(200);
      const second = await put<PersonSkillResponse>(`/employees/${employee.id}/skills/${skill.id}`, {
        score: 2,
        ratingType: 'LLM_RATING',
      }).expect(200);
      expect(second.body.data.personSkillId).toBe(first.body.data.personSkillId);
      expect(second.body.data.latestRating).toMatchObject({ score: 2, ratingType: 'LLM_RATING', comment: null });
      const ratings = await get<RatingResponse[]>(`/employees/${employee.id}/ratings`).expect(200);
      expect(ratings.body.data.map((r) => r.score)).toEqual([2, 1]);
      expect(ratings.body.data[1]).toMatchObject({ ratingId: first.body.data.latestRating!.ratingId, score: 1 });
    });

    it('creates one PersonSkill and two ratings from two concurrent first ratings', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const responses = await Promise.all(
        [3, 5].map((score) =>
          put<PersonSkillResponse>(`/employees/${employee.id}/skills/${skill.id}`, {
            score,
            ratingType: 'MANAGER_EVALUATION',
          }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      expect(responses[0].body.data.personSkillId).toBe(responses[1].body.data.personSkillId);
      const skills = await get<PersonSkillResponse[]>(`/employees/${employee.id}/skills`).expect(200);
      expect(skills.body.data).toHaveLength(1);
      const ratings = await get<RatingResponse[]>(`/employees/${employee.id}/ratings`).expect(200);
      expect(ratings.body.data.map((r) => r.score).sort()).toEqual([3, 5]);
      expect(events.namesOf(suite.tenant.organisationId).filter((name) => name === 'skill.rated')).toHaveLength(2);
    });

    it('accepts the bounds of the skill scale and refuses a score outside it with 400 naming the range', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant, { ratingScaleMin: 1, ratingScaleMax: 10 });
      await put(`/employees/${employee.id}/skills/${skill.id}`, { score: 1, ratingType: 'LLM_RATING' }).expect(200);
      await put(`/employees/${employee.id}/skills/${skill.id}`, { score: 10, ratingType: 'LLM_RATING' }).expect(200);
      events.clear(suite.tenant.organisationId);
      for (const score of [0, 11]) {
        const response = await put<PersonSkillResponse>(`/employees/${employee.id}/skills/${skill.id}`, {
          score,
          ratingType: 'LLM_RATING',
        }).expect(400);
        expect(response.body.error).toEqual({
          code: 'VALIDATION_ERROR',
          message: expect.stringContaining('between 1 and 10'),
          details: [{ field: 'score', message: expect.stringContaining('between 1 and 10') }],
        });
      }
      expect(events.of(suite.tenant.organisationId)).toEqual([]);
    });

    it.each([
      ['a score that is not an integer', { score: 2.5, ratingType: 'LLM_RATING' }, 'score'],
      ['a missing score', { ratingType: 'LLM_RATING' }, 'score'],
      ['the correct spelling SELF_ASSESSMENT', { score: 2, ratingType: 'SELF_ASSESSMENT' }, 'ratingType'],
      ['a lower-case rating type', { score: 2, ratingType: 'manager_evaluation' }, 'ratingType'],
      ['a missing rating type', { score: 2 }, 'ratingType'],
      ['a comment over 2000', { score: 2, ratingType: 'LLM_RATING', comment: 'x'.repeat(2001) }, 'comment'],
      ['an unknown field', { score: 2, ratingType: 'LLM_RATING', skillId: UNKNOWN_ID }, 'skillId'],
    ])('rejects %s with 400', async (_case, body, field) => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const response = await put(`/employees/${employee.id}/skills/${skill.id}`, body).expect(400);
      expect(response.body.error.details[0].field).toBe(field);
    });

    it('answers unknown and malformed employee or skill ids with 404', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const body = { score: 2, ratingType: 'LLM_RATING' };
      for (const path of [
        `/employees/${UNKNOWN_ID}/skills/${skill.id}`,
        `/employees/nope/skills/${skill.id}`,
        `/employees/${employee.id}/skills/${UNKNOWN_ID}`,
        `/employees/${employee.id}/skills/nope`,
      ]) {
        const response = await put(path, body).expect(404);
        expect(response.body.error.code).toBe('NOT_FOUND');
      }
    });
  });

  describe('GET /employees/{id}/skills', () => {
    it('lists PersonSkills ordered by skillName, each with its full latest rating', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const names = ['delta', 'Bravo', 'charlie', 'Alpha'].map((name) => `${name}-${unique('')}`);
      const skills = [];
      for (const name of names) skills.push(await createSkill(suite.app, suite.tenant, { name }));
      const latest: Record<string, RatingResponse> = {};
      for (const skill of skills) {
        await rate(suite.app, suite.tenant, employee.id, skill.id, { score: 1 });
        latest[skill.id] = await rate(suite.app, suite.tenant, employee.id, skill.id, {
          score: 2,
          comment: `on ${skill.name}`,
        });
      }
      const response = await get<PersonSkillResponse[]>(`/employees/${employee.id}/skills`).expect(200);
      expect(response.body.data.map((s) => s.skillName)).toEqual([names[3], names[1], names[2], names[0]]);
      const alpha = skills[3];
      expect(response.body.data[0]).toEqual({
        personSkillId: latest[alpha.id].personSkillId,
        skillId: alpha.id,
        skillName: alpha.name,
        latestRating: {
          ratingId: latest[alpha.id].ratingId,
          score: 2,
          ratingType: 'MANAGER_EVALUATION',
          comment: `on ${alpha.name}`,
          createdAt: latest[alpha.id].createdAt,
        },
      });
      expect(response.body.meta).toBeUndefined();
    });

    it('orders skill names case-insensitively by code point, letters beyond ASCII after z, here and in the detail', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const names = ['Éclair', 'zeta', 'Alpha'].map((name) => `${name}-${unique('')}`);
      for (const name of names)
        await rate(suite.app, suite.tenant, employee.id, (await createSkill(suite.app, suite.tenant, { name })).id);
      const listed = await get<PersonSkillResponse[]>(`/employees/${employee.id}/skills`).expect(200);
      expect(listed.body.data.map((s) => s.skillName)).toEqual([names[2], names[1], names[0]]);
      const detail = await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200);
      expect(detail.body.data.skills.map((s) => s.skillName)).toEqual([names[2], names[1], names[0]]);
    });

    it('answers an employee without skills with an empty array, and unknown ids with 404', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      expect((await get<PersonSkillResponse[]>(`/employees/${employee.id}/skills`).expect(200)).body).toEqual({
        success: true,
        data: [],
      });
      await get(`/employees/${UNKNOWN_ID}/skills`).expect(404);
      await get('/employees/nope/skills').expect(404);
    });

    it('reads an employee with 20 skills in a fixed number of queries (no N+1)', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const lonely = await createEmployee(suite.app, suite.tenant);
      for (let i = 0; i < 20; i++) {
        const skill = await createSkill(suite.app, suite.tenant);
        await rate(suite.app, suite.tenant, employee.id, skill.id);
        await rate(suite.app, suite.tenant, employee.id, skill.id, { score: 4 });
        if (i === 0) await rate(suite.app, suite.tenant, lonely.id, skill.id);
      }
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      const countQueries = async (path: string) => {
        spy.mockClear();
        await get(path).expect(200);
        const feature = spy.mock.calls.filter(([sql]) =>
          /\b(employees|person_skills|ratings|skills|employee_detail_v2)\b/.test(String(sql)),
        );
        // Not the replicas' check, which a timer sends on the primary and on each replica whatever the request.
        const all = spy.mock.calls.filter(([sql]) => !/\bpg_(current_wal_lsn|is_in_recovery)\(/.test(String(sql)));
        return { all: all.length, feature: feature.length };
      };
      try {
        const detailOfTwenty = await countQueries(`/employees/${employee.id}`);
        const detailOfOne = await countQueries(`/employees/${lonely.id}`);
        const listOfTwenty = await countQueries(`/employees/${employee.id}/skills`);
        // The EmployeeDetail is one statement (employee_detail_v2): the employee joined to its skills and latest ratings.
        expect(detailOfTwenty.feature).toBe(1);
        expect(detailOfTwenty.all).toBe(detailOfOne.all);
        expect(listOfTwenty.feature).toBe(2);
      } finally {
        spy.mockRestore();
      }
      const detail = await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200);
      expect(detail.body.data.skills).toHaveLength(20);
      expect(detail.body.data.skills.every((s) => s.latestRating?.score === 4)).toBe(true);
    });
  });

  describe('DELETE /employees/{id}/skills/{skillId}', () => {
    const addRatings = async (employeeId: string, skillId: string, count: number) => {
      for (let i = 0; i < count; i++) await rate(suite.app, suite.tenant, employeeId, skillId);
    };

    it('deletes a link with 5 ratings and its ratings without force', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const kept = await createSkill(suite.app, suite.tenant);
      await addRatings(employee.id, skill.id, 5);
      await rate(suite.app, suite.tenant, employee.id, kept.id);
      events.clear(suite.tenant.organisationId);
      const response = await del<DeletedResponse>(`/employees/${employee.id}/skills/${skill.id}`).expect(200);
      expect(response.body).toEqual({ success: true, data: { deleted: true } });
      expect(
        (await get<PersonSkillResponse[]>(`/employees/${employee.id}/skills`)).body.data.map((s) => s.skillId),
      ).toEqual([kept.id]);
      const ratings = await get<RatingResponse[]>(`/employees/${employee.id}/ratings`).expect(200);
      expect(ratings.body.data.map((r) => r.skillId)).toEqual([kept.id]);
      // The removal is recorded for the feed (no webhook carries it).
      expect(events.of(suite.tenant.organisationId)).toEqual([
        expect.objectContaining({
          name: 'employee_skill.deleted',
          data: { employeeId: employee.id, skillId: skill.id, personSkillId: expect.any(String) },
        }),
      ]);
    });

    it('refuses a link with more than 5 ratings with 409 unless force=true', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      await addRatings(employee.id, skill.id, 6);
      for (const query of ['', '?force=false']) {
        const refused = await del(`/employees/${employee.id}/skills/${skill.id}${query}`).expect(409);
        expect(refused.body.error).toEqual({ code: 'CONFLICT', message: expect.stringContaining('force=true') });
      }
      expect((await get<RatingResponse[]>(`/employees/${employee.id}/ratings`)).body.meta.total).toBe(6);
      await del(`/employees/${employee.id}/skills/${skill.id}?force=true`).expect(200);
      expect((await get<RatingResponse[]>(`/employees/${employee.id}/ratings`)).body.meta.total).toBe(0);
      expect((await get<EmployeeDetailResponse>(`/employees/${employee.id}`)).body.data.skills).toEqual([]);
    });

    it('accepts force=true on a link with few ratings and rejects a force that is not true or false', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      await addRatings(employee.id, skill.id, 1);
      const response = await del(`/employees/${employee.id}/skills/${skill.id}?force=yes`).expect(400);
      expect(response.body.error.details[0].field).toBe('force');
      await del(`/employees/${employee.id}/skills/${skill.id}?force=true`).expect(200);
    });

    it('answers 404 for an unlinked skill and for unknown or malformed ids', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      await del(`/employees/${employee.id}/skills/${skill.id}`).expect(404);
      await rate(suite.app, suite.tenant, employee.id, skill.id);
      await del(`/employees/${UNKNOWN_ID}/skills/${skill.id}`).expect(404);
      await del(`/employees/nope/skills/${skill.id}`).expect(404);
      await del(`/employees/${employee.id}/skills/${UNKNOWN_ID}`).expect(404);
      await del(`/employees/${employee.id}/skills/nope`).expect(404);
      await del(`/employees/${employee.id}/skills/${skill.id}`).expect(200);
      await del(`/employees/${employee.id}/skills/${skill.id}`).expect(404);
    });

    it('lets the employee be rated on the skill again afterwards, as a new PersonSkill', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const before = await rate(suite.app, suite.tenant, employee.id, skill.id);
      await del(`/employees/${employee.id}/skills/${skill.id}`).expect(200);
      const after = await rate(suite.app, suite.tenant, employee.id, skill.id);
      expect(after.personSkillId).not.toBe(before.personSkillId);
    });
  });
});
