import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { HistoryEntryResponse } from '../../src/history/dto/history-entry.response';
import { createTenant, dataSourceOf } from '../support/app';
import { createEmployee, createSkill, rate } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

describe('GET /employees/{id}/history and GET /skills/{id}/history (issue 47)', () => {
  const suite = useTestApp();
  const { get, patch, post, del, call } = suite.api;

  const historyOf = async (path: string) => (await get<HistoryEntryResponse[]>(path).expect(200)).body;

  it("lists an employee's changes newest first, each with version, actor, requestId and changes", async () => {
    const employee = await createEmployee(suite.app, suite.tenant, { title: 'Engineer' });
    await call('patch', `/employees/${employee.id}`)
      .set('X-Request-Id', 'req-title')
      .send({ title: 'CTO' })
      .expect(200);
    await patch(`/employees/${employee.id}`, { departmentId: 'D-1' }).expect(200);
    await del(`/employees/${employee.id}`).expect(200);
    const skill = await createSkill(suite.app, suite.tenant);
    await rate(suite.app, suite.tenant, employee.id, skill.id);
    const { data, meta } = await historyOf(`/employees/${employee.id}/history`);
    expect(data.map(({ event, version }) => [event, version])).toEqual([
      ['employee.deactivated', 4],
      ['employee.updated', 3],
      ['employee.updated', 2],
      ['employee.created', 1],
    ]);
    expect(meta).toMatchObject({ total: 4, page: 1 });
    const [, department, title, created] = data;
    expect(title).toEqual({
      id: expect.any(String),
      event: 'employee.updated',
      timestamp: expect.any(String),
      version: 2,
      data: expect.objectContaining({ id: employee.id, title: 'CTO', version: 2 }) as unknown,
      changes: { title: { previous: 'Engineer', current: 'CTO' } },
      actor: { type: 'api_key', id: suite.tenant.keyId },
      requestId: 'req-title',
    });
    expect(department.changes).toEqual({ departmentId: { previous: null, current: 'D-1' } });
    expect(created.changes).toBeUndefined();
  });

  it('pages with a cursor, newest first, every change once', async () => {
    const employee = await createEmployee(suite.app, suite.tenant);
    for (const title of ['A', 'B', 'C', 'D']) await patch(`/employees/${employee.id}`, { title }).expect(200);
    const path = `/employees/${employee.id}/history?limit=2`;
    let page = await historyOf(path);
    const versions = page.data.map(({ version }) => version);
    while (page.meta.nextCursor !== null) {
      page = await historyOf(`${path}&cursor=${encodeURIComponent(page.meta.nextCursor)}`);
      versions.push(...page.data.map(({ version }) => version));
    }
    expect(versions).toEqual([5, 4, 3, 2, 1]);
  });

  it('holds only redacted events after erasure, the erasure first', async () => {
    const employee = await createEmployee(suite.app, suite.tenant, { title: 'Secret title' });
    await patch(`/employees/${employee.id}`, { lastName: 'Byron' }).expect(200);
    await post(`/employees/${employee.id}/erase`, {}).expect(200);
    const { data } = await historyOf(`/employees/${employee.id}/history`);
    expect(data.map(({ event, version }) => [event, version])).toEqual([
      ['employee.erased', 3],
      ['employee.updated', 2],
      ['employee.created', 1],
    ]);
    expect(data[0].data).toEqual({ id: employee.id, erasedAt: expect.any(String) });
    for (const entry of data.slice(1)) {
      expect(entry.data).toEqual({ id: employee.id });
      expect(entry.changes).toBeUndefined();
    }
    expect(JSON.stringify(data)).not.toMatch(/Secret title|Byron|Lovelace/);
  });

  it('answers another organisation, an unknown id and a malformed id with 404', async () => {
    const theirs = await createEmployee(suite.app, await createTenant(suite.app, 'Other'));
    await get(`/employees/${theirs.id}/history`).expect(404);
    await get(`/employees/${UNKNOWN_ID}/history`).expect(404);
    await get('/employees/nope/history').expect(404);
    const theirSkill = await createSkill(suite.app, await createTenant(suite.app, 'Other skills'));
    await get(`/skills/${theirSkill.id}/history`).expect(404);
  });

  it('lists an employee whose events retention pruned as an empty history', async () => {
    const employee = await createEmployee(suite.app, suite.tenant);
    await dataSourceOf(suite.app).query(`DELETE FROM events WHERE organisation_id = $1`, [suite.tenant.organisationId]);
    const { data, meta } = await historyOf(`/employees/${employee.id}/history`);
    expect(data).toEqual([]);
    expect(meta.total).toBe(0);
  });

  it("lists a skill's changes newest first", async () => {
    const skill = await createSkill(suite.app, suite.tenant);
    await patch(`/skills/${skill.id}`, { description: 'Typed' }).expect(200);
    const { data } = await historyOf(`/skills/${skill.id}/history`);
    expect(data.map(({ event }) => event)).toEqual(['skill.updated', 'skill.created']);
    expect(data[0].changes).toMatchObject({ description: { current: 'Typed' } });
  });

  it('finds one employee among many on events_resource_idx, without reading the feed', async () => {
    const employee = await createEmployee(suite.app, suite.tenant);
    const source = dataSourceOf(suite.app);
    const runner = source.createQueryRunner();
    try {
      await runner.startTransaction();
      await runner.query('SET LOCAL enable_seqscan = off');
      const plan = (await runner.query(
        `EXPLAIN SELECT id FROM events WHERE organisation_id = $1 AND resource_id = $2
          ORDER BY resource_version DESC, txid DESC, id DESC LIMIT 21`,
        [suite.tenant.organisationId, employee.id],
      )) as Array<{ 'QUERY PLAN': string }>;
      expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toMatch(
        /Index (Only )?Scan Backward using events_resource_idx/,
      );
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    const created = (await get<EmployeeResponse>(`/employees/${employee.id}`).expect(200)).body.data;
    expect(created.version).toBe(1);
  });
});
