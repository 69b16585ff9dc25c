import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { SkillResponse } from '../../src/skills/dto/skill.response';
import { createTenant } from '../support/app';
import { createEmployee, createSkill, rate } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('delta sync: updatedAt and updatedSince', () => {
  const suite = useTestApp();

  const { get, patch, del } = suite.api;

  const employee = async (id: string) => (await get<EmployeeResponse>(`/employees/${id}`).expect(200)).body.data;
  const skill = async (id: string) => (await get<SkillResponse>(`/skills/${id}`).expect(200)).body.data;

  describe('updatedAt', () => {
    it('is set at creation, equal to createdAt, on employees and skills', async () => {
      const created = await createEmployee(suite.app, suite.tenant);
      expect(created.createdAt).toMatch(ISO_MS);
      expect(created.updatedAt).toBe(created.createdAt);
      const createdSkill = await createSkill(suite.app, suite.tenant);
      expect(createdSkill.updatedAt).toBe(createdSkill.createdAt);
    });

    it('moves on a PATCH, a deactivation and a reactivation of an employee, never on a rating', async () => {
      const created = await createEmployee(suite.app, suite.tenant);
      const rated = await createSkill(suite.app, suite.tenant);
      await tick();
      const patched = (await patch<EmployeeResponse>(`/employees/${created.id}`, { title: 'CTO' }).expect(200)).body
        .data;
      expect(patched.updatedAt > created.updatedAt).toBe(true);
      expect(patched.createdAt).toBe(created.createdAt);

      await tick();
      await rate(suite.app, suite.tenant, created.id, rated.id);
      expect((await employee(created.id)).updatedAt).toBe(patched.updatedAt);
      expect((await skill(rated.id)).updatedAt).toBe(rated.updatedAt);

      const { leftAt } = (await del<{ leftAt: string }>(`/employees/${created.id}`).expect(200)).body.data;
      expect((await employee(created.id)).updatedAt).toBe(leftAt);

      await tick();
      await del(`/employees/${created.id}`).expect(200);
      expect((await employee(created.id)).updatedAt).toBe(leftAt);

      await tick();
      const reactivated = (await patch<EmployeeResponse>(`/employees/${created.id}`, { leftAt: null }).expect(200)).body
        .data;
      expect(reactivated.updatedAt > leftAt).toBe(true);
    });

    it('moves on a PATCH of a skill', async () => {
      const created = await createSkill(suite.app, suite.tenant);
      await tick();
      const patched = (await patch<SkillResponse>(`/skills/${created.id}`, { description: 'x' }).expect(200)).body.data;
      expect(patched.updatedAt > created.updatedAt).toBe(true);
      expect(patched.createdAt).toBe(created.createdAt);
    });
  });

  describe('GET /employees?updatedSince', () => {
    it('lists only employees changed at or after it, oldest change first, with an exact total', async () => {
      const first = await createEmployee(suite.app, suite.tenant);
      await tick();
      const second = await createEmployee(suite.app, suite.tenant);
      await tick();
      const third = await createEmployee(suite.app, suite.tenant);
      await tick();
      const changed = (await patch<EmployeeResponse>(`/employees/${first.id}`, { title: 'Changed' }).expect(200)).body
        .data;

      const all = await get<EmployeeResponse[]>(`/employees?updatedSince=${second.updatedAt}`).expect(200);
      expect(all.body.data.map((e) => e.id)).toEqual([second.id, third.id, first.id]);
      expect(all.body.meta).toMatchObject({ total: 3, page: 1, totalPages: 1 });

      // Inclusive: the time of a change read back names that change.
      const since = await get<EmployeeResponse[]>(`/employees?updatedSince=${changed.updatedAt}`).expect(200);
      expect(since.body.data.map((e) => e.id)).toEqual([first.id]);

      const paged = await get<EmployeeResponse[]>(`/employees?updatedSince=${first.createdAt}&limit=2&page=2`);
      expect(paged.body.data.map((e) => e.id)).toEqual([first.id]);
      expect(paged.body.meta).toMatchObject({ total: 3, totalPages: 2, hasPrevPage: true, hasNextPage: false });
    });

    it('combines with search, departmentId and isActive', async () => {
      const since = new Date(Date.now() - 1000).toISOString();
      const match = await createEmployee(suite.app, suite.tenant, { departmentId: 'D-SYNC', lastName: 'Zephyrine' });
      await createEmployee(suite.app, suite.tenant, { departmentId: 'D-SYNC', lastName: 'Other' });
      const gone = await createEmployee(suite.app, suite.tenant, {
        departmentId: 'D-SYNC',
        lastName: 'Zephyrine-Gone',
      });
      await del(`/employees/${gone.id}`).expect(200);

      const query = `updatedSince=${since}&departmentId=D-SYNC&search=zephyr`;
      expect((await get<EmployeeResponse[]>(`/employees?${query}`)).body.data.map((e) => e.id)).toEqual([
        match.id,
        gone.id,
      ]);
      const active = await get<EmployeeResponse[]>(`/employees?${query}&isActive=true`);
      expect(active.body.data.map((e) => e.id)).toEqual([match.id]);
      expect(active.body.meta.total).toBe(1);
      const future = new Date(Date.now() + 60_000).toISOString();
      expect((await get(`/employees?updatedSince=${future}`).expect(200)).body.meta.total).toBe(0);
    });

    it.each(['yesterday', '2026-02-30', '', '1769850000000'])('refuses updatedSince=%s with 400', async (value) => {
      const response = await get(`/employees?updatedSince=${value}`).expect(400);
      expect(response.body.error.details[0].field).toBe('updatedSince');
    });

    it("never lists another organisation's employees", async () => {
      const other = await createTenant(suite.app);
      await createEmployee(suite.app, other);
      expect((await get('/employees?updatedSince=2000-01-01').expect(200)).body.meta.total).toBe(0);
    });
  });

  describe('GET /skills?updatedSince', () => {
    it('lists only skills changed at or after it, oldest change first, and combines with search', async () => {
      const first = await createSkill(suite.app, suite.tenant, { name: `Sync Alpha ${Date.now()}` });
      await tick();
      const second = await createSkill(suite.app, suite.tenant, { name: `Sync Beta ${Date.now()}` });
      await tick();
      await patch(`/skills/${first.id}`, { description: 'changed' }).expect(200);

      const listed = await get<SkillResponse[]>(`/skills?updatedSince=${second.updatedAt}`).expect(200);
      expect(listed.body.data.map((s) => s.id)).toEqual([second.id, first.id]);
      expect(listed.body.meta.total).toBe(2);
      const searched = await get<SkillResponse[]>(`/skills?updatedSince=${second.updatedAt}&search=alpha`);
      expect(searched.body.data.map((s) => s.id)).toEqual([first.id]);
      await get('/skills?updatedSince=soon').expect(400);
    });
  });
});
