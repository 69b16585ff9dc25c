import * as fc from 'fast-check';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { SkillResponse } from '../../src/skills/dto/skill.response';
import { apiClient, Envelope } from '../support/api-client';
import { createTenant, dataSourceOf, TestTenant } from '../support/app';
import { NEEDS_A_SERVER, onEmbeddedDatabase } from '../support/database-kind';
import { createEmployee, createSkill, rate } from '../support/people.factory';
import { PositionsFixtures } from '../support/positions-fixtures';
import { useTestApp } from '../support/use-test-app';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const SINCE = 'updatedSince=2000-01-01T00:00:00.000Z';

interface Identified {
  id?: string;
  ratingId?: string;
  deliveryId?: string;
}

const idOf = (item: Identified) => item.id ?? item.ratingId ?? item.deliveryId;

describe('cursor paging: lists that never skip a row', () => {
  const suite = useTestApp({ tenant: 'none' });
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    other = await createTenant(suite.app, 'Other');
  });
  beforeEach(async () => {
    tenant = await createTenant(suite.app);
  });

  const as = (who: () => TestTenant) => apiClient(() => suite.app, who);
  const { get, post, patch, del } = as(() => tenant);

  /** Reads a page of `path` (which has its own query, or none) and answers its body. */
  async function page<T>(path: string, params: string): Promise<Envelope<T[]>> {
    const separator = path.includes('?') ? '&' : '?';
    return (await get<T[]>(`${path}${separator}${params}`).expect(200)).body;
  }

  /** Follows nextCursor from a first page by cursor to the end; `between` runs before each further page. */
  async function readAll<T extends Identified>(
    path: string,
    limit: number,
    between: (pageNumber: number) => Promise<void> = async () => {},
  ): Promise<T[]> {
    const seen: T[] = [];
    let body = await page<T>(path, `limit=${limit}`);
    seen.push(...body.data);
    for (let pageNumber = 2; body.meta.nextCursor !== null; pageNumber++) {
      await between(pageNumber);
      body = await page<T>(path, `limit=${limit}&cursor=${encodeURIComponent(body.meta.nextCursor)}`);
      seen.push(...body.data);
      if (pageNumber > 1000) throw new Error('the pass does not end');
    }
    return seen;
  }

  const cursorOf = async (path: string, limit = 1) => {
    const { nextCursor } = (await page(path, `limit=${limit}`)).meta;
    if (nextCursor === null) throw new Error(`${path} has a single page`);
    return nextCursor;
  };

  const expectCursorRefused = async (path: string) => {
    const response = await get(path).expect(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
  };

  describe('the P1..P4 case of issue 21', () => {
    it('sees every employee of an updatedSince pass, and the one changed mid-pass again in its new state', async () => {
      const created: EmployeeResponse[] = [];
      for (let i = 0; i < 4; i++) {
        created.push(await createEmployee(suite.app, tenant, { firstName: `P${i + 1}` }));
        await tick();
      }
      let changed: EmployeeResponse | undefined;
      const seen = await readAll<EmployeeResponse>(`/employees?${SINCE}`, 2, async (pageNumber) => {
        if (pageNumber !== 2) return;
        await tick();
        changed = (await patch<EmployeeResponse>(`/employees/${created[0].id}`, { title: 'moved' }).expect(200)).body
          .data;
      });
      expect(seen.map((employee) => employee.firstName)).toEqual(['P1', 'P2', 'P3', 'P4', 'P1']);
      expect(seen[4]).toEqual(changed);
      expect(seen[4].title).toBe('moved');
    });

    it('does the same for skills', async () => {
      const created: SkillResponse[] = [];
      for (let i = 0; i < 4; i++) {
        created.push(await createSkill(suite.app, tenant));
        await tick();
      }
      const seen = await readAll<SkillResponse>(`/skills?${SINCE}`, 2, async (pageNumber) => {
        if (pageNumber === 2) await patch(`/skills/${created[0].id}`, { description: 'moved' }).expect(200);
      });
      expect(seen.map((skill) => skill.id)).toEqual([...created.map((skill) => skill.id), created[0].id]);
      expect(seen[4].description).toBe('moved');
    });
  });

  it('skips no skill when one before the cursor is deleted between two pages', async () => {
    const created: SkillResponse[] = [];
    for (let i = 0; i < 5; i++) created.push(await createSkill(suite.app, tenant));
    const seen = await readAll<SkillResponse>('/skills', 2, async (pageNumber) => {
      if (pageNumber === 2) await del(`/skills/${created[0].id}`).expect(200);
    });
    expect(seen.map((skill) => skill.id)).toEqual(created.map((skill) => skill.id));
  });

  describe('meta', () => {
    it('is exactly {limit, hasNextPage, nextCursor} in cursor mode, with nothing counted', async () => {
      for (let i = 0; i < 3; i++) await createSkill(suite.app, tenant);
      const cursor = await cursorOf('/skills');
      const middle = await page('/skills', `limit=1&cursor=${cursor}`);
      expect(middle.meta).toEqual({ limit: 1, hasNextPage: true, nextCursor: expect.any(String) });
      const last = await page('/skills', `limit=5&cursor=${cursor}`);
      expect(last.meta).toEqual({ limit: 5, hasNextPage: false, nextCursor: null });
      expect(last.data).toHaveLength(2);
    });

    it('gives page mode its meta plus nextCursor, so page 1 with its total continues by cursor', async () => {
      const created: SkillResponse[] = [];
      for (let i = 0; i < 5; i++) created.push(await createSkill(suite.app, tenant));
      const first = await page<SkillResponse>('/skills', 'limit=2&page=1');
      expect(first.meta).toEqual({
        total: 5,
        page: 1,
        limit: 2,
        totalPages: 3,
        hasNextPage: true,
        hasPrevPage: false,
        nextCursor: expect.any(String),
      });
      const second = await page<SkillResponse>('/skills', 'limit=2&page=2');
      const byCursor = await page<SkillResponse>('/skills', `limit=2&cursor=${first.meta.nextCursor}`);
      expect(byCursor.data).toEqual(second.data);
      expect((await page('/skills', 'limit=2&page=3')).meta.nextCursor).toBeNull();
      expect((await page('/skills', 'limit=2&page=9')).meta.nextCursor).toBeNull();
    });

    it('lets limit change from page to page', async () => {
      const created: SkillResponse[] = [];
      for (let i = 0; i < 6; i++) created.push(await createSkill(suite.app, tenant));
      const first = await page<SkillResponse>('/skills', 'limit=1');
      const second = await page<SkillResponse>('/skills', `limit=3&cursor=${first.meta.nextCursor}`);
      const third = await page<SkillResponse>('/skills', `limit=100&cursor=${second.meta.nextCursor}`);
      expect([...first.data, ...second.data, ...third.data].map((skill) => skill.id)).toEqual(
        created.map((skill) => skill.id),
      );
      expect(second.data).toHaveLength(3);
    });
  });

  describe('a cursor that is not for this request', () => {
    beforeEach(async () => {
      for (let i = 0; i < 3; i++) await createSkill(suite.app, tenant, { name: `Cursor skill ${i} ${Math.random()}` });
      for (let i = 0; i < 2; i++) await createEmployee(suite.app, tenant);
    });

    it('is 400 naming cursor when sent with page', async () => {
      await expectCursorRefused(`/skills?page=1&cursor=${await cursorOf('/skills')}`);
    });

    it('is 400 naming cursor when tampered with or malformed', async () => {
      const cursor = await cursorOf('/skills');
      const [payload, mac] = cursor.split('.');
      const forged = Buffer.from(JSON.stringify([{ date: '2000-01-01T00:00:00.000Z' }, 'x'])).toString('base64url');
      await expectCursorRefused(`/skills?cursor=${forged}.${mac}`);
      await expectCursorRefused(`/skills?cursor=${payload}.${mac.slice(0, -2)}AA`);
      for (const bad of ['x', '', '...', 'a.b', `${cursor}.x`, '%00', '%F0%9F%92%A9']) {
        await expectCursorRefused(`/skills?cursor=${bad}`);
      }
    });

    it('is 400 naming cursor with other filters, a filter added, or a filter dropped', async () => {
      const filtered = await cursorOf('/skills?search=cursor');
      await expectCursorRefused(`/skills?search=Cursor&cursor=${filtered}`);
      await expectCursorRefused(`/skills?cursor=${filtered}`);
      await expectCursorRefused(`/skills?search=cursor&${SINCE}&cursor=${filtered}`);
      await get(`/skills?search=cursor&cursor=${filtered}&limit=7`).expect(200);
    });

    it('is 400 naming cursor on another list', async () => {
      await expectCursorRefused(`/employees?cursor=${await cursorOf('/skills')}`);
      await expectCursorRefused(`/skills?cursor=${await cursorOf('/employees')}`);
    });

    it('is 400 naming cursor for another organisation, never its rows', async () => {
      const cursor = await cursorOf('/skills');
      const response = await as(() => other)
        .get(`/skills?cursor=${cursor}`)
        .expect(400);
      expect(response.body.error.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
    });
  });

  describe('every list in cursor mode', () => {
    it('employees, also with search, departmentId, isActive and updatedSince', async () => {
      const created: EmployeeResponse[] = [];
      for (let i = 0; i < 5; i++) {
        created.push(
          await createEmployee(suite.app, tenant, {
            lastName: i % 2 ? 'Searchable' : 'Other',
            departmentId: `d${i % 2}`,
          }),
        );
      }
      const ids = (items: Identified[]) => items.map(idOf);
      expect(ids(await readAll('/employees', 2))).toEqual(ids(created));
      const odd = ids(created.filter((_, i) => i % 2));
      expect(ids(await readAll('/employees?search=searchable', 1))).toEqual(odd);
      expect(ids(await readAll(`/employees?search=searchable&${SINCE}`, 1))).toEqual(odd);
      expect(ids(await readAll('/employees?departmentId=d1&isActive=true', 1))).toEqual(odd);
      expect(ids(await readAll(`/employees?${SINCE}&isActive=true`, 2))).toEqual(ids(created));
    });

    it('skills, also with search', async () => {
      const created: SkillResponse[] = [];
      for (let i = 0; i < 4; i++) created.push(await createSkill(suite.app, tenant));
      expect((await readAll<SkillResponse>('/skills', 3)).map(idOf)).toEqual(created.map(idOf));
      expect((await readAll<SkillResponse>(`/skills?search=skill`, 1)).map(idOf)).toEqual(created.map(idOf));
    });

    it('positions, also with status', async () => {
      const fixtures = new PositionsFixtures(dataSourceOf(suite.app), tenant.organisationId);
      const created = [];
      for (let i = 0; i < 4; i++) {
        created.push(await fixtures.position({ status: i % 2 ? 'FILLED' : 'OPEN' }));
        await tick();
      }
      expect((await readAll('/positions', 3)).map(idOf)).toEqual(created.map(idOf));
      const filled = created.filter((position) => position.status === 'FILLED').map(idOf);
      expect((await readAll('/positions?status=FILLED', 1)).map(idOf)).toEqual(filled);
    });

    it("an employee's ratings, newest first, also with skillId; a foreign employee is 404", async () => {
      const employee = await createEmployee(suite.app, tenant);
      const skill = await createSkill(suite.app, tenant);
      const ratings = [];
      for (let i = 0; i < 5; i++) ratings.push(await rate(suite.app, tenant, employee.id, skill.id, { score: i }));
      const newestFirst = ratings.map(idOf).reverse();
      const path = `/employees/${employee.id}/ratings`;
      expect((await readAll(path, 2)).map(idOf)).toEqual(newestFirst);
      expect((await readAll(`${path}?skillId=${skill.id}`, 4)).map(idOf)).toEqual(newestFirst);
      const cursor = await cursorOf(path);
      await expectCursorRefused(`/employees/${(await createEmployee(suite.app, tenant)).id}/ratings?cursor=${cursor}`);
      await as(() => other)
        .get(`${path}?limit=1`)
        .expect(404);
    });

    it("a webhook's deliveries, newest first; a foreign webhook is 404", async () => {
      const webhook = (
        await post<{ id: string }>('/webhooks', { url: 'https://hooks.example.com/c', events: ['employee.created'] })
      ).body.data;
      for (let i = 0; i < 3; i++) await createEmployee(suite.app, tenant);
      const path = `/webhooks/${webhook.id}/deliveries`;
      const all = await page<Identified>(path, 'limit=100');
      expect(all.data).toHaveLength(3);
      expect((await readAll(path, 2)).map(idOf)).toEqual(all.data.map(idOf));
      await as(() => other)
        .get(`${path}?limit=1`)
        .expect(404);
    });
  });

  describe('a PATCH that sends the current values', () => {
    /** The events a webhook subscribed to employee.updated was sent: its deliveries are recorded with the change. */
    async function updatedEventsDelivered(webhookId: string): Promise<string[]> {
      const deliveries = await page<{ event: string }>(`/webhooks/${webhookId}/deliveries`, 'limit=100');
      return deliveries.data.map((delivery) => delivery.event);
    }

    it('keeps updatedAt of an employee and emits nothing', async () => {
      const webhook = (
        await post<{ id: string }>('/webhooks', { url: 'https://hooks.example.com/u', events: ['employee.updated'] })
      ).body.data;
      const employee = await createEmployee(suite.app, tenant, {
        title: 'CTO',
        departmentId: 'd1',
        hiredAt: '2020-01-01',
      });
      await tick();
      const sameValues = {
        firstName: employee.firstName,
        title: 'CTO',
        departmentId: 'd1',
        hiredAt: '2020-01-01T00:00:00Z',
        leftAt: null,
        isHRTeamMember: false,
      };
      const answered = (await patch<EmployeeResponse>(`/employees/${employee.id}`, sameValues).expect(200)).body.data;
      expect(answered).toEqual(employee);
      expect((await get<EmployeeResponse>(`/employees/${employee.id}`).expect(200)).body.data.updatedAt).toBe(
        employee.updatedAt,
      );
      expect(await updatedEventsDelivered(webhook.id)).toEqual([]);
      await patch(`/employees/${employee.id}`, { title: 'CEO' }).expect(200);
      expect(await updatedEventsDelivered(webhook.id)).toEqual(['employee.updated']);
    });

    it('keeps updatedAt of a skill', async () => {
      const skill = await createSkill(suite.app, tenant, { description: 'd', ratingScaleMax: 5 });
      await tick();
      const answered = (
        await patch<SkillResponse>(`/skills/${skill.id}`, {
          name: skill.name,
          description: 'd',
          ratingScaleMax: 5,
        }).expect(200)
      ).body.data;
      expect(answered).toEqual(skill);
      const [listed] = (await page<SkillResponse>(`/skills?${SINCE}`, 'limit=1')).data;
      expect(listed.updatedAt).toBe(skill.updatedAt);
      const changed = (await patch<SkillResponse>(`/skills/${skill.id}`, { description: null }).expect(200)).body.data;
      expect(changed.updatedAt > skill.updatedAt).toBe(true);
    });
  });

  // Behind PgBouncer (CI's TEST_PGBOUNCER run) the start-up limits are dropped and set on the role instead
  // (docs/operations.md), and the embedded database keeps no such limits (one session, in-process);
  // data-source-options.spec.ts checks what the pool asks for either way.
  const directToPostgres = process.env.TEST_PGBOUNCER === 'true' || onEmbeddedDatabase() ? it.skip : it;
  directToPostgres(
    `bounds every transaction of the server to 30 s: statements and idle time in a transaction ${NEEDS_A_SERVER}`,
    async () => {
      const setting = async (name: string) => {
        const [row] = await dataSourceOf(suite.app).query<{ ms: number }[]>(
          `SELECT setting::int AS ms FROM pg_settings WHERE name = $1`,
          [name],
        );
        return row.ms;
      };
      expect(await setting('idle_in_transaction_session_timeout')).toBe(30_000);
      const statementMs = await setting('statement_timeout');
      expect(statementMs).toBeGreaterThan(0);
      expect(statementMs).toBeLessThanOrEqual(30_000);
    },
  );

  describe('property: a cursor pass never loses a row that lived through it', () => {
    type Operation = { kind: 'create' } | { kind: 'update'; target: number } | { kind: 'delete'; target: number };
    const operation: fc.Arbitrary<Operation> = fc.oneof(
      fc.constant<Operation>({ kind: 'create' }),
      fc.nat(20).map<Operation>((target) => ({ kind: 'update', target })),
      fc.nat(20).map<Operation>((target) => ({ kind: 'delete', target })),
    );

    it('holds for skills in creation order and in updatedSince order, with creates, updates and deletes', async () => {
      let changes = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 8 }),
          fc.integer({ min: 1, max: 4 }),
          fc.boolean(),
          fc.array(fc.array(operation, { maxLength: 3 }), { maxLength: 8 }),
          async (initial, limit, delta, batches) => {
            tenant = await createTenant(suite.app);
            const live = new Map<string, SkillResponse>();
            for (let i = 0; i < initial; i++) {
              const skill = await createSkill(suite.app, tenant);
              live.set(skill.id, skill);
            }
            const lived = new Set(live.keys());
            const apply = async (each: Operation) => {
              const ids = [...live.keys()];
              if (each.kind === 'create') {
                const skill = await createSkill(suite.app, tenant);
                live.set(skill.id, skill);
              } else if (ids.length > 0) {
                const id = ids[each.target % ids.length];
                if (each.kind === 'delete') {
                  await del(`/skills/${id}`).expect(200);
                  live.delete(id);
                  lived.delete(id);
                } else {
                  await tick();
                  changes += 1;
                  const body = { description: `change ${changes}` };
                  live.set(id, (await patch<SkillResponse>(`/skills/${id}`, body).expect(200)).body.data);
                }
              }
            };
            const seen = await readAll<SkillResponse>(delta ? `/skills?${SINCE}` : '/skills', limit, async (n) => {
              for (const each of batches[n - 2] ?? []) await apply(each);
            });
            const seenIds = seen.map((skill) => skill.id);
            for (const id of lived) {
              if (delta) {
                // In updatedSince order a row comes again after a change; its last sighting is its final state.
                expect(seen.filter((skill) => skill.id === id).at(-1)).toEqual(live.get(id));
              } else {
                expect(seenIds.filter((seenId) => seenId === id)).toHaveLength(1);
              }
            }
          },
        ),
        { numRuns: 25 },
      );
    });
  });
});
