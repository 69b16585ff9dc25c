import { DeletedResponse } from '../../src/http/deleted.response';
import { SkillDetailResponse, SkillResponse } from '../../src/skills/dto/skill.response';
import { createTenant } from '../support/app';
import { createEmployee, createSkill, rate, unique } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

describe('skills', () => {
  const suite = useTestApp();

  const { get, post, patch, del } = suite.api;

  describe('POST /skills', () => {
    it('creates a skill with the defaults NUMERIC, 0 and 5', async () => {
      const response = await post<SkillResponse>('/skills', { name: 'TypeScript' }).expect(201);
      expect(response.body).toEqual({
        success: true,
        data: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: 'TypeScript',
          description: null,
          aliases: [],
          hiddenAliases: [],
          groups: [],
          source: null,
          externalId: null,
          ratingScaleMin: 0,
          ratingScaleMax: 5,
          ratingScaleType: 'NUMERIC',
          createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          updatedAt: response.body.data.createdAt,
          version: 1,
        },
      });
    });

    it('takes every field', async () => {
      const response = await post<SkillResponse>('/skills', {
        name: 'Negotiation',
        description: 'Getting to yes',
        ratingScaleMin: 1,
        ratingScaleMax: 10,
        ratingScaleType: 'STAR',
      }).expect(201);
      expect(response.body.data).toMatchObject({
        name: 'Negotiation',
        description: 'Getting to yes',
        ratingScaleMin: 1,
        ratingScaleMax: 10,
        ratingScaleType: 'STAR',
      });
    });

    it('accepts a single-point scale (min equal to max) and a CUSTOM type', async () => {
      await post('/skills', { name: 'Pass', ratingScaleMin: 1, ratingScaleMax: 1, ratingScaleType: 'CUSTOM' }).expect(
        201,
      );
    });

    it.each([
      ['name missing', { name: undefined }, 'name'],
      ['name empty', { name: '' }, 'name'],
      ['name over 200', { name: 'x'.repeat(201) }, 'name'],
      ['description over 2000', { description: 'x'.repeat(2001) }, 'description'],
      ['ratingScaleMin not an integer', { ratingScaleMin: 1.5 }, 'ratingScaleMin'],
      ['ratingScaleMax a string', { ratingScaleMax: '5' }, 'ratingScaleMax'],
      ['ratingScaleMax null', { ratingScaleMax: null }, 'ratingScaleMax'],
      ['ratingScaleMax beyond a 32-bit integer', { ratingScaleMax: 2 ** 31 }, 'ratingScaleMax'],
      ['ratingScaleType unknown', { ratingScaleType: 'LETTER' }, 'ratingScaleType'],
      ['ratingScaleType in lower case', { ratingScaleType: 'numeric' }, 'ratingScaleType'],
      ['ratingScaleMin above ratingScaleMax', { ratingScaleMin: 6, ratingScaleMax: 5 }, 'ratingScaleMin'],
      ['ratingScaleMin above the default max', { ratingScaleMin: 6 }, 'ratingScaleMin'],
      ['an unknown field', { scale: 5 }, 'scale'],
    ])('rejects %s with 400', async (_case, fields, field) => {
      const response = await post('/skills', { name: unique('s'), ...fields }).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details[0].field).toBe(field);
    });

    it('refuses a name that differs only in case with 409, but allows it in another organisation', async () => {
      await createSkill(suite.app, suite.tenant, { name: 'Kubernetes' });
      const response = await post('/skills', { name: 'KUBERNETES' }).expect(409);
      expect(response.body).toEqual({
        success: false,
        error: { code: 'CONFLICT', message: expect.stringContaining('name') },
      });
      await createSkill(suite.app, await createTenant(suite.app), { name: 'Kubernetes' });
    });
  });

  describe('GET /skills', () => {
    it('lists oldest first with meta', async () => {
      const skills = [];
      for (let i = 0; i < 3; i++) skills.push(await createSkill(suite.app, suite.tenant));
      const response = await get<SkillResponse[]>('/skills?limit=2&page=2').expect(200);
      expect(response.body).toEqual({
        success: true,
        data: [skills[2]],
        meta: { total: 3, page: 2, limit: 2, totalPages: 2, hasNextPage: false, hasPrevPage: true, nextCursor: null },
      });
      expect((await get<SkillResponse[]>('/skills').expect(200)).body.data).toEqual(skills);
    });

    it('searches a case-insensitive substring of the name, wildcards literally', async () => {
      const java = await createSkill(suite.app, suite.tenant, { name: 'JavaScript' });
      const percent = await createSkill(suite.app, suite.tenant, { name: '100% Focus' });
      const underscore = await createSkill(suite.app, suite.tenant, { name: 'snake_case' });
      await createSkill(suite.app, suite.tenant, { name: 'Go', description: 'javascript-free' });
      const search = async (term: string) =>
        (await get<SkillResponse[]>(`/skills?search=${encodeURIComponent(term)}`).expect(200)).body.data.map(
          (s) => s.id,
        );
      expect(await search('ASCRI')).toEqual([java.id]);
      expect(await search('%')).toEqual([percent.id]);
      expect(await search('_')).toEqual([underscore.id]);
      expect(await search('j_va')).toEqual([]);
      const counted = await get<SkillResponse[]>('/skills?search=a').expect(200);
      expect(counted.body.meta.total).toBe(2);
    });
  });

  describe('GET /skills/{id}', () => {
    it('returns the SkillDetail with the number of active employees linked to it', async () => {
      const skill = await createSkill(suite.app, suite.tenant);
      const other = await createSkill(suite.app, suite.tenant);
      const [active, twiceRated, leaving, unrelated] = await Promise.all([
        createEmployee(suite.app, suite.tenant),
        createEmployee(suite.app, suite.tenant),
        createEmployee(suite.app, suite.tenant),
        createEmployee(suite.app, suite.tenant),
      ]);
      await rate(suite.app, suite.tenant, active.id, skill.id);
      await rate(suite.app, suite.tenant, twiceRated.id, skill.id);
      await rate(suite.app, suite.tenant, twiceRated.id, skill.id);
      await rate(suite.app, suite.tenant, leaving.id, skill.id);
      await rate(suite.app, suite.tenant, unrelated.id, other.id);
      await del(`/employees/${leaving.id}`).expect(200);
      const response = await get<SkillDetailResponse>(`/skills/${skill.id}`).expect(200);
      expect(response.body).toEqual({ success: true, data: { ...skill, employeeCount: 2 } });
      expect(
        (await get<SkillDetailResponse>(`/skills/${(await createSkill(suite.app, suite.tenant)).id}`)).body.data
          .employeeCount,
      ).toBe(0);
    });

    it.each([UNKNOWN_ID, 'not-a-uuid'])('answers %s with 404', async (id) => {
      const response = await get(`/skills/${id}`).expect(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    });
  });

  describe('PATCH /skills/{id}', () => {
    it('changes only the supplied fields and clears description with null', async () => {
      const skill = await createSkill(suite.app, suite.tenant, { description: 'old' });
      const response = await patch<SkillResponse>(`/skills/${skill.id}`, {
        description: null,
        ratingScaleMax: 10,
        ratingScaleType: 'STAR',
      }).expect(200);
      const expected = {
        ...skill,
        description: null,
        ratingScaleMax: 10,
        ratingScaleType: 'STAR',
        updatedAt: response.body.data.updatedAt,
        version: 2,
      };
      expect(response.body).toEqual({ success: true, data: expected });
      expect(Date.parse(expected.updatedAt)).toBeGreaterThan(Date.parse(skill.updatedAt));
      expect((await get<SkillDetailResponse>(`/skills/${skill.id}`)).body.data).toEqual({
        ...expected,
        employeeCount: 0,
      });
    });

    it('rejects a change that leaves ratingScaleMin above ratingScaleMax with 400, changing nothing', async () => {
      const skill = await createSkill(suite.app, suite.tenant);
      const response = await patch(`/skills/${skill.id}`, { ratingScaleMin: 6 }).expect(400);
      expect(response.body.error.details[0].field).toBe('ratingScaleMin');
      await patch(`/skills/${skill.id}`, { ratingScaleMax: -1 }).expect(400);
      expect((await get<SkillDetailResponse>(`/skills/${skill.id}`)).body.data).toMatchObject({
        ratingScaleMin: 0,
        ratingScaleMax: 5,
      });
      await patch(`/skills/${skill.id}`, { ratingScaleMin: 6, ratingScaleMax: 8 }).expect(200);
    });

    it.each([
      ['name null', { name: null }],
      ['name empty', { name: '' }],
      ['ratingScaleMin null', { ratingScaleMin: null }],
      ['ratingScaleType null', { ratingScaleType: null }],
      ['an unknown field', { createdAt: '2026-01-01' }],
    ])('rejects %s with 400', async (_case, body) => {
      const skill = await createSkill(suite.app, suite.tenant);
      await patch(`/skills/${skill.id}`, body).expect(400);
    });

    it('refuses another skill’s name (any case) with 409 but accepts a new case of its own name', async () => {
      const taken = await createSkill(suite.app, suite.tenant, { name: 'Rust' });
      const skill = await createSkill(suite.app, suite.tenant, { name: 'Go' });
      await patch(`/skills/${skill.id}`, { name: taken.name.toLowerCase() }).expect(409);
      const renamed = await patch<SkillResponse>(`/skills/${skill.id}`, { name: 'GO' }).expect(200);
      expect(renamed.body.data.name).toBe('GO');
    });

    it.each([UNKNOWN_ID, 'nope'])('answers %s with 404', async (id) => {
      await patch(`/skills/${id}`, { name: 'x' }).expect(404);
    });
  });

  describe('DELETE /skills/{id}', () => {
    it('deletes a skill without ratings', async () => {
      const skill = await createSkill(suite.app, suite.tenant);
      const response = await del<DeletedResponse>(`/skills/${skill.id}`).expect(200);
      expect(response.body).toEqual({ success: true, data: { deleted: true } });
      await get(`/skills/${skill.id}`).expect(404);
      await del(`/skills/${skill.id}`).expect(404);
    });

    it('refuses with 409 while employee ratings exist, and deletes once they are gone', async () => {
      const skill = await createSkill(suite.app, suite.tenant);
      const employee = await createEmployee(suite.app, suite.tenant);
      await rate(suite.app, suite.tenant, employee.id, skill.id);
      const response = await del(`/skills/${skill.id}`).expect(409);
      expect(response.body.error.code).toBe('CONFLICT');
      await get(`/skills/${skill.id}`).expect(200);
      await del(`/employees/${employee.id}/skills/${skill.id}`).expect(200);
      await del(`/skills/${skill.id}`).expect(200);
    });

    it.each([UNKNOWN_ID, 'nope'])('answers %s with 404', async (id) => {
      await del(`/skills/${id}`).expect(404);
    });
  });
});
