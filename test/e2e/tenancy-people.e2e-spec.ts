import { EmployeeDetailResponse, EmployeeResponse } from '../../src/employees/dto/employee.response';
import { RatingResponse } from '../../src/ratings/dto/rating.response';
import { SkillDetailResponse, SkillResponse } from '../../src/skills/dto/skill.response';
import { apiClient } from '../support/api-client';
import { createTenant, TestTenant } from '../support/app';
import { EventRecorder } from '../support/event-recorder';
import { createEmployee, createSkill, rate } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

/** Employees, skills, employee skills and ratings of one organisation are invisible to another. */
describe('tenancy of employees, skills and ratings', () => {
  const suite = useTestApp({ tenant: 'none' });
  let owner: TestTenant;
  let stranger: TestTenant;
  let events: EventRecorder;
  let employee: EmployeeResponse;
  let skill: SkillResponse;
  let strangersEmployee: EmployeeResponse;
  let strangersSkill: SkillResponse;

  beforeAll(async () => {
    events = EventRecorder.attach(suite.app);
    owner = await createTenant(suite.app, 'Owner');
    stranger = await createTenant(suite.app, 'Stranger');
    employee = await createEmployee(suite.app, owner, { firstName: 'Shared', departmentId: 'D' });
    skill = await createSkill(suite.app, owner, { name: 'Shared skill' });
    await rate(suite.app, owner, employee.id, skill.id);
    strangersEmployee = await createEmployee(suite.app, stranger, { firstName: 'Shared', departmentId: 'D' });
    strangersSkill = await createSkill(suite.app, stranger, { name: 'Shared skill' });
    events.clear(owner.organisationId);
    events.clear(stranger.organisationId);
  });
  afterAll(() => events.detach());

  const as = (tenant: TestTenant) =>
    apiClient(
      () => suite.app,
      () => tenant,
    );

  it.each([
    ['GET /employees/{id}', () => as(stranger).get(`/employees/${employee.id}`)],
    ['PATCH /employees/{id}', () => as(stranger).patch(`/employees/${employee.id}`, { firstName: 'Hacked' })],
    ['DELETE /employees/{id}', () => as(stranger).del(`/employees/${employee.id}`)],
    ['GET /employees/{id}/skills', () => as(stranger).get(`/employees/${employee.id}/skills`)],
    [
      'PUT /employees/{id}/skills/{skillId} with the other’s employee',
      () =>
        as(stranger).put(`/employees/${employee.id}/skills/${strangersSkill.id}`, {
          score: 1,
          ratingType: 'LLM_RATING',
        }),
    ],
    [
      'PUT /employees/{id}/skills/{skillId} with the other’s skill',
      () =>
        as(stranger).put(`/employees/${strangersEmployee.id}/skills/${skill.id}`, {
          score: 1,
          ratingType: 'LLM_RATING',
        }),
    ],
    [
      'DELETE /employees/{id}/skills/{skillId}',
      () => as(stranger).del(`/employees/${employee.id}/skills/${skill.id}?force=true`),
    ],
    [
      'DELETE /employees/{id}/skills/{skillId} with the other’s skill',
      () => as(stranger).del(`/employees/${strangersEmployee.id}/skills/${skill.id}`),
    ],
    ['GET /employees/{id}/ratings', () => as(stranger).get(`/employees/${employee.id}/ratings`)],
    [
      'POST /employees/{id}/ratings with the other’s employee',
      () =>
        as(stranger).post(`/employees/${employee.id}/ratings`, {
          skillId: strangersSkill.id,
          score: 1,
          ratingType: 'LLM_RATING',
        }),
    ],
    [
      'POST /employees/{id}/ratings with the other’s skill in the body',
      () =>
        as(stranger).post(`/employees/${strangersEmployee.id}/ratings`, {
          skillId: skill.id,
          score: 1,
          ratingType: 'LLM_RATING',
        }),
    ],
    ['GET /skills/{id}', () => as(stranger).get(`/skills/${skill.id}`)],
    ['GET /skills/{id}/employees', () => as(stranger).get(`/skills/${skill.id}/employees`)],
    ['PATCH /skills/{id}', () => as(stranger).patch(`/skills/${skill.id}`, { name: 'Hacked' })],
    ['DELETE /skills/{id}', () => as(stranger).del(`/skills/${skill.id}`)],
  ])('%s with the other organisation’s ids answers 404 and emits nothing', async (_case, call) => {
    const response = await call();
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    expect(events.of(stranger.organisationId)).toEqual([]);
    expect(events.of(owner.organisationId)).toEqual([]);
  });

  it('leaves the owner’s rows untouched', async () => {
    const detail = await as(owner).get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200);
    expect(detail.body.data).toMatchObject({ firstName: 'Shared', leftAt: null });
    expect(detail.body.data.skills).toHaveLength(1);
    expect((await as(owner).get<SkillDetailResponse>(`/skills/${skill.id}`).expect(200)).body.data).toMatchObject({
      name: 'Shared skill',
      employeeCount: 1,
    });
    expect(
      (await as(owner).get<RatingResponse[]>(`/employees/${employee.id}/ratings`).expect(200)).body.meta.total,
    ).toBe(1);
  });

  it('never lists the other organisation’s rows, whatever the filter', async () => {
    for (const query of ['', '?search=shared', '?departmentId=D', '?isActive=true']) {
      const response = await as(stranger).get<EmployeeResponse[]>(`/employees${query}`).expect(200);
      expect(response.body.data.map((e) => e.id)).toEqual([strangersEmployee.id]);
      expect(response.body.meta.total).toBe(1);
    }
    for (const query of ['', '?search=shared']) {
      const response = await as(stranger).get<SkillResponse[]>(`/skills${query}`).expect(200);
      expect(response.body.data.map((s) => s.id)).toEqual([strangersSkill.id]);
    }
    const ratings = await as(stranger)
      .get<RatingResponse[]>(`/employees/${strangersEmployee.id}/ratings?skillId=${skill.id}`)
      .expect(200);
    expect(ratings.body.data).toEqual([]);
    expect(
      (await as(stranger).get<SkillDetailResponse>(`/skills/${strangersSkill.id}`).expect(200)).body.data.employeeCount,
    ).toBe(0);
  });
});
