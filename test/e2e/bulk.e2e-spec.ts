import { Client } from 'pg';
import { BulkItemResultResponse } from '../../src/bulk/bulk';
import { newId } from '../../src/database/uuid';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { RatingResponse } from '../../src/ratings/dto/rating.response';
import { SkillResponse } from '../../src/skills/dto/skill.response';
import { createTenant, dataSourceOf, TEST_SERVICE_SECRET_KEY } from '../support/app';
import { readFeed } from '../support/event-feed';
import { EventRecorder } from '../support/event-recorder';
import { createEmployee, createSkill, unique } from '../support/people.factory';
import { itIfPostgres } from '../support/requirements';
import { startServer } from '../support/server-process';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';

/** A valid POST /employees body with a fresh personnelNumber and businessEmail. */
function employeeItem(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const number = unique('b');
  return {
    personnelNumber: number,
    firstName: 'Ada',
    lastName: 'Lovelace',
    businessEmail: `${number}@example.com`,
    ...fields,
  };
}

jest.setTimeout(120_000);

describe('bulk upsert', () => {
  const suite = useTestApp();
  let events: EventRecorder;
  beforeAll(async () => {
    events = EventRecorder.attach(suite.app);
  });
  afterAll(async () => {
    events.detach();
  });

  const { get, post, patch, call } = suite.api;

  describe('POST /employees/bulk', () => {
    it('creates unknown personnelNumbers and answers one result per item with the counts', async () => {
      const items = [employeeItem(), employeeItem({ title: 'Analyst', isHRTeamMember: true })];
      const response = await post<BulkItemResultResponse[]>('/employees/bulk', { items }).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: [
          { index: 0, status: 'created', id: expect.any(String), error: null },
          { index: 1, status: 'created', id: expect.any(String), error: null },
        ],
        meta: { created: 2, updated: 0, unchanged: 0, failed: 0 },
      });
      const second = await get<EmployeeResponse>(`/employees/${response.body.data[1].id}`).expect(200);
      expect(second.body.data).toMatchObject({ ...items[1], gender: null, leftAt: null });
      expect(events.of(suite.tenant.organisationId)).toEqual([
        expect.objectContaining({
          name: 'employee.created',
          data: expect.objectContaining({ id: response.body.data[0].id }),
          inTransaction: true,
        }),
        expect.objectContaining({
          name: 'employee.created',
          data: expect.objectContaining({ id: response.body.data[1].id }),
          inTransaction: true,
        }),
      ]);
    });

    it('changes a known personnelNumber as PATCH does, and an item with its current values is unchanged, without event or new updatedAt', async () => {
      const known = await createEmployee(suite.app, suite.tenant, { title: 'Engineer' });
      const same = await createEmployee(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const response = await post<BulkItemResultResponse[]>('/employees/bulk', {
        items: [
          { personnelNumber: known.personnelNumber, title: 'Lead' },
          { personnelNumber: same.personnelNumber, firstName: same.firstName, title: null },
        ],
      }).expect(200);
      expect(response.body.data).toEqual([
        { index: 0, status: 'updated', id: known.id, error: null },
        { index: 1, status: 'unchanged', id: same.id, error: null },
      ]);
      expect(response.body.meta).toEqual({ created: 0, updated: 1, unchanged: 1, failed: 0 });
      const changed = (await get<EmployeeResponse>(`/employees/${known.id}`).expect(200)).body.data;
      expect(changed).toMatchObject({ title: 'Lead', firstName: known.firstName, createdAt: known.createdAt });
      expect(changed.updatedAt > known.updatedAt).toBe(true);
      expect((await get<EmployeeResponse>(`/employees/${same.id}`).expect(200)).body.data.updatedAt).toBe(
        same.updatedAt,
      );
      expect(events.of(suite.tenant.organisationId)).toEqual([
        expect.objectContaining({
          name: 'employee.updated',
          data: expect.objectContaining({ id: known.id, title: 'Lead' }),
        }),
      ]);
    });

    it('deactivates with leftAt: employee.updated, then employee.deactivated, as PATCH', async () => {
      const active = await createEmployee(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const leftAt = '2026-03-01T12:00:00.000Z';
      await post('/employees/bulk', { items: [{ personnelNumber: active.personnelNumber, leftAt }] }).expect(200);
      expect(events.namesOf(suite.tenant.organisationId)).toEqual(['employee.updated', 'employee.deactivated']);
      expect(events.of(suite.tenant.organisationId)[1].data).toMatchObject({ id: active.id, leftAt });
      expect((await get<EmployeeResponse>(`/employees/${active.id}`).expect(200)).body.data.leftAt).toBe(leftAt);
    });

    it('fails only the bad items, with the error the single endpoint answers, and emits the others in item order', async () => {
      const existing = await createEmployee(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const first = employeeItem();
      const last = employeeItem();
      const response = await post<BulkItemResultResponse[]>('/employees/bulk', {
        items: [
          first,
          employeeItem({ businessEmail: 'not an email' }),
          employeeItem({ businessEmail: existing.businessEmail.toUpperCase() }),
          employeeItem({ nickname: 'x' }),
          42,
          { personnelNumber: existing.personnelNumber, leftAt: 'yesterday' },
          last,
        ],
      }).expect(200);
      const [ok0, invalid, taken, unknownField, notObject, badPatch, ok6] = response.body.data;
      expect(ok0).toMatchObject({ index: 0, status: 'created' });
      expect(ok6).toMatchObject({ index: 6, status: 'created' });
      expect(invalid).toEqual({
        index: 1,
        status: 'failed',
        id: null,
        error: {
          code: 'VALIDATION_ERROR',
          message: 'businessEmail must be an email',
          details: [{ field: 'businessEmail', message: 'businessEmail must be an email' }],
        },
      });
      expect(taken.error).toEqual({ code: 'CONFLICT', message: 'An employee with this businessEmail already exists' });
      expect(unknownField.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'nickname', message: expect.any(String) }],
      });
      expect(notObject.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(badPatch.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'leftAt', message: expect.any(String) }],
      });
      expect(response.body.meta).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 5 });

      // The single endpoint answers the same for the same body.
      const single = await post(
        '/employees',
        employeeItem({ businessEmail: existing.businessEmail.toUpperCase() }),
      ).expect(409);
      expect(single.body.error).toEqual(taken.error);
      expect(
        events.of(suite.tenant.organisationId).map((event) => (event.data as EmployeeResponse).personnelNumber),
      ).toEqual([first.personnelNumber, last.personnelNumber]);
      const list = await get<EmployeeResponse[]>('/employees?limit=100').expect(200);
      expect(list.body.meta.total).toBe(3);
    });

    it('fails a second item with the same personnelNumber, or a businessEmail an earlier item took, with CONFLICT', async () => {
      const item = employeeItem();
      const response = await post<BulkItemResultResponse[]>('/employees/bulk', {
        items: [
          item,
          { ...item, firstName: 'Other' },
          employeeItem({ businessEmail: String(item.businessEmail).toUpperCase() }),
        ],
      }).expect(200);
      expect(response.body.data.map((result) => [result.status, result.error?.code])).toEqual([
        ['created', undefined],
        ['failed', 'CONFLICT'],
        ['failed', 'CONFLICT'],
      ]);
      const created = (await get<EmployeeResponse>(`/employees/${response.body.data[0].id}`).expect(200)).body.data;
      expect(created.firstName).toBe('Ada');
    });

    it('fails a second item with an earlier personnelNumber with CONFLICT even when it is no valid create', async () => {
      const item = employeeItem();
      const response = await post<BulkItemResultResponse[]>('/employees/bulk', {
        items: [item, { personnelNumber: item.personnelNumber, title: 'Analyst' }],
      }).expect(200);
      expect(response.body.data[1]).toEqual({
        index: 1,
        status: 'failed',
        id: null,
        error: { code: 'CONFLICT', message: 'An earlier item of this request has this personnelNumber' },
      });
      expect(response.body.meta).toEqual({ created: 1, updated: 0, unchanged: 0, failed: 1 });
    });

    it('isolates an item the database refuses: the others of the batch are written', async () => {
      // The checks made before writing know only the items; the unique index refuses the taken businessEmail.
      const existing = await createEmployee(suite.app, suite.tenant);
      const other = await createEmployee(suite.app, suite.tenant);
      const renamed = `${unique('free')}@example.com`;
      const response = await post<BulkItemResultResponse[]>('/employees/bulk', {
        items: [
          { personnelNumber: existing.personnelNumber, businessEmail: renamed },
          employeeItem(),
          employeeItem({ businessEmail: other.businessEmail.toUpperCase() }),
          employeeItem({ businessEmail: existing.businessEmail }),
        ],
      }).expect(200);
      expect(response.body.data.map((result) => result.status)).toEqual(['updated', 'created', 'failed', 'created']);
      expect(response.body.data[2].error).toEqual({
        code: 'CONFLICT',
        message: 'An employee with this businessEmail already exists',
      });
      expect((await get('/employees').expect(200)).body.meta.total).toBe(4);
    });

    it.each([
      ['no items', []],
      ['1,001 items', Array.from({ length: 1001 }, () => ({}))],
    ])('refuses %s with 400 naming items', async (_label, items) => {
      const response = await post('/employees/bulk', { items }).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details).toEqual([{ field: 'items', message: expect.stringMatching(/^items /) }]);
    });

    it('counts a bulk request once against the rate limit, whatever its number of items', async () => {
      const first = await post('/employees/bulk', { items: [employeeItem()] }).expect(200);
      const second = await post('/employees/bulk', {
        items: Array.from({ length: 1000 }, () => employeeItem()),
      }).expect(200);
      expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    });

    it('refuses a body without items, or with another field, with 400', async () => {
      await post('/employees/bulk', {}).expect(400);
      await post('/employees/bulk', { items: [employeeItem()], dryRun: true }).expect(400);
    });

    it('replays a request with the same Idempotency-Key without writing or emitting again', async () => {
      const body = { items: [employeeItem(), employeeItem()] };
      const first = await call('post', '/employees/bulk').set('Idempotency-Key', 'bulk-1').send(body).expect(200);
      events.clear(suite.tenant.organisationId);
      const again = await call('post', '/employees/bulk').set('Idempotency-Key', 'bulk-1').send(body).expect(200);
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(events.of(suite.tenant.organisationId)).toEqual([]);
      expect((await get('/employees').expect(200)).body.meta.total).toBe(2);
    });

    it('isolates a failing item also inside the transaction of an Idempotency-Key', async () => {
      const existing = await createEmployee(suite.app, suite.tenant);
      const response = await call('post', '/employees/bulk')
        .set('Idempotency-Key', 'bulk-2')
        .send({ items: [employeeItem(), employeeItem({ businessEmail: existing.businessEmail }), employeeItem()] })
        .expect(200);
      expect((response.body as { data: BulkItemResultResponse[] }).data.map((result) => result.status)).toEqual([
        'created',
        'failed',
        'created',
      ]);
      expect((await get('/employees').expect(200)).body.meta.total).toBe(3);
    });

    it("never matches another organisation's employee: its personnelNumber creates one here", async () => {
      const other = await createTenant(suite.app, 'Other');
      const theirs = await createEmployee(suite.app, other);
      const response = await post<BulkItemResultResponse[]>('/employees/bulk', {
        items: [{ ...employeeItem(), personnelNumber: theirs.personnelNumber, businessEmail: theirs.businessEmail }],
      }).expect(200);
      expect(response.body.data[0]).toMatchObject({ status: 'created' });
      expect(response.body.data[0].id).not.toBe(theirs.id);
    });

    it('records the events in the feed in item order, each with its delivery to a subscribed endpoint', async () => {
      await post('/webhooks', { url: 'https://127.0.0.1:1/ping', events: ['employee.created'] }).expect(201);
      const items = Array.from({ length: 5 }, () => employeeItem());
      const response = await post<BulkItemResultResponse[]>('/employees/bulk', { items }).expect(200);
      const feed = await readFeed<{ id: string; event: string; data: EmployeeResponse }>(
        async (query) => (await get(`/events${query}`).expect(200)).body,
        (events) => events.length >= items.length,
      );
      expect(feed.map((event) => event.data.id)).toEqual(response.body.data.map((result) => result.id));
      const deliveries: { event_id: string }[] = await dataSourceOf(suite.app).query(
        `SELECT event_id FROM webhook_deliveries WHERE organisation_id = $1 ORDER BY event_id`,
        [suite.tenant.organisationId],
      );
      expect(deliveries.map((delivery) => delivery.event_id)).toEqual(feed.map((event) => event.id));
    });
  });

  describe('POST /skills/bulk', () => {
    it('creates unknown names, changes a known one matched in any case, and leaves an equal one unchanged', async () => {
      const known = await createSkill(suite.app, suite.tenant, { description: 'old' });
      const same = await createSkill(suite.app, suite.tenant);
      const name = unique('Skill');
      const response = await post<BulkItemResultResponse[]>('/skills/bulk', {
        items: [
          { name, ratingScaleMax: 10 },
          { name: known.name.toUpperCase(), description: 'new' },
          { name: same.name, ratingScaleMin: 0 },
        ],
      }).expect(200);
      expect(response.body.data).toEqual([
        { index: 0, status: 'created', id: expect.any(String), error: null },
        { index: 1, status: 'updated', id: known.id, error: null },
        { index: 2, status: 'unchanged', id: same.id, error: null },
      ]);
      expect(response.body.meta).toEqual({ created: 1, updated: 1, unchanged: 1, failed: 0 });
      const created = await get<SkillResponse>(`/skills/${response.body.data[0].id}`).expect(200);
      expect(created.body.data).toMatchObject({
        name,
        ratingScaleMin: 0,
        ratingScaleMax: 10,
        ratingScaleType: 'NUMERIC',
      });
      const changed = await get<SkillResponse>(`/skills/${known.id}`).expect(200);
      expect(changed.body.data).toMatchObject({ name: known.name.toUpperCase(), description: 'new' });
      expect((await get<SkillResponse>(`/skills/${same.id}`).expect(200)).body.data.updatedAt).toBe(same.updatedAt);
    });

    it('fails a bad scale, a second item with the same name in any case, and an invalid item, alone', async () => {
      const known = await createSkill(suite.app, suite.tenant, { ratingScaleMax: 5 });
      const name = unique('Skill');
      const response = await post<BulkItemResultResponse[]>('/skills/bulk', {
        items: [
          { name },
          { name: name.toLowerCase() },
          { name: known.name, ratingScaleMin: 6 },
          { name: unique('Skill'), ratingScaleType: 'SLIDER' },
          { name: unique('Skill') },
        ],
      }).expect(200);
      expect(response.body.data.map((result) => [result.status, result.error?.code])).toEqual([
        ['created', undefined],
        ['failed', 'CONFLICT'],
        ['failed', 'VALIDATION_ERROR'],
        ['failed', 'VALIDATION_ERROR'],
        ['created', undefined],
      ]);
      const single = await patch(`/skills/${known.id}`, { ratingScaleMin: 6 }).expect(400);
      expect(response.body.data[2].error).toEqual(single.body.error);
    });

    it('fails a second item with an earlier name with CONFLICT even when it is no valid create', async () => {
      const name = unique('Skill');
      const response = await post<BulkItemResultResponse[]>('/skills/bulk', {
        items: [{ name }, { name: name.toUpperCase(), ratingScaleType: 'SLIDER' }],
      }).expect(200);
      expect(response.body.data.map((result) => [result.status, result.error])).toEqual([
        ['created', null],
        ['failed', { code: 'CONFLICT', message: 'An earlier item of this request has this name' }],
      ]);
    });
  });

  describe('POST /ratings/bulk', () => {
    it('rates by personnelNumber and skillName or by ids, creating the employee skill, with skill.rated in item order', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const response = await post<BulkItemResultResponse[]>('/ratings/bulk', {
        items: [
          {
            personnelNumber: employee.personnelNumber,
            skillName: skill.name.toUpperCase(),
            score: 2,
            ratingType: 'SELF_ASSESMENT',
          },
          { employeeId: employee.id, skillId: skill.id, score: 4, ratingType: 'MANAGER_EVALUATION', comment: 'good' },
        ],
      }).expect(200);
      expect(response.body.data).toEqual([
        { index: 0, status: 'created', id: expect.any(String), error: null },
        { index: 1, status: 'created', id: expect.any(String), error: null },
      ]);
      expect(response.body.meta).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0 });
      const ratings = await get<RatingResponse[]>(`/employees/${employee.id}/ratings`).expect(200);
      const byId = new Map(ratings.body.data.map((rating) => [rating.ratingId, rating]));
      const first = byId.get(response.body.data[0].id!)!;
      const second = byId.get(response.body.data[1].id!)!;
      expect(first).toMatchObject({
        skillId: skill.id,
        skillName: skill.name,
        score: 2,
        ratingType: 'SELF_ASSESMENT',
        comment: null,
      });
      expect(second).toMatchObject({ score: 4, comment: 'good', personSkillId: first.personSkillId });
      expect(events.of(suite.tenant.organisationId)).toEqual([
        expect.objectContaining({ name: 'skill.rated', data: { employeeId: employee.id, rating: first } }),
        expect.objectContaining({ name: 'skill.rated', data: { employeeId: employee.id, rating: second } }),
      ]);
    });

    it('keeps the latest of several ratings that create one employee skill: the newest, then the larger id', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const scores = [1, 5, 0, 3, 2];
      const response = await post<BulkItemResultResponse[]>('/ratings/bulk', {
        items: scores.map((score) => ({ employeeId: employee.id, skillId: skill.id, score, ratingType: 'LLM_RATING' })),
      }).expect(200);
      const ratings = (await get<RatingResponse[]>(`/employees/${employee.id}/ratings`).expect(200)).body.data;
      expect(ratings.map((rating) => rating.ratingId).sort()).toEqual(
        response.body.data.map((result) => result.id!).sort(),
      );
      // A bulk request's ratings share one createdAt, so the larger id decides.
      const latest = ratings.reduce((kept, rating) =>
        rating.createdAt > kept.createdAt || (rating.createdAt === kept.createdAt && rating.ratingId > kept.ratingId)
          ? rating
          : kept,
      );
      const holders = await get<Array<{ employee: { id: string }; latestRating: RatingResponse | null }>>(
        `/skills/${skill.id}/employees`,
      ).expect(200);
      expect(holders.body.data).toEqual([
        expect.objectContaining({
          employee: expect.objectContaining({ id: employee.id }),
          latestRating: expect.objectContaining({ ratingId: latest.ratingId, score: latest.score }),
        }),
      ]);
    });

    it("fails an unknown or another organisation's employee or skill with NOT_FOUND, without leaking it", async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      const other = await createTenant(suite.app, 'Other');
      const theirEmployee = await createEmployee(suite.app, other);
      const theirSkill = await createSkill(suite.app, other);
      const rating = { score: 3, ratingType: 'MANAGER_EVALUATION' };
      const response = await post<BulkItemResultResponse[]>('/ratings/bulk', {
        items: [
          { ...rating, employeeId: theirEmployee.id, skillId: skill.id },
          { ...rating, employeeId: employee.id, skillId: theirSkill.id },
          { ...rating, personnelNumber: theirEmployee.personnelNumber, skillName: skill.name },
          { ...rating, employeeId: 'not-a-uuid', skillName: theirSkill.name },
          { ...rating, employeeId: employee.id, skillId: skill.id },
        ],
      }).expect(200);
      const notFound = (resource: string) => ({ code: 'NOT_FOUND', message: `${resource} not found` });
      expect(response.body.data.map((result) => result.error)).toEqual([
        notFound('Employee'),
        notFound('Skill'),
        notFound('Employee'),
        notFound('Employee'),
        null,
      ]);
      const single = await post(`/employees/${employee.id}/ratings`, { ...rating, skillId: theirSkill.id }).expect(404);
      expect(single.body.error).toEqual(notFound('Skill'));
      expect(
        (await get(`/employees/${theirEmployee.id}/ratings`).set('Authorization', other.bearer).expect(200)).body.meta
          .total,
      ).toBe(0);
    });

    it('fails a score outside the scale, a missing or doubled reference and an invalid field, alone', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant, { ratingScaleMin: 1, ratingScaleMax: 3 });
      const base = { employeeId: employee.id, skillId: skill.id, ratingType: 'MANAGER_EVALUATION' };
      const response = await post<BulkItemResultResponse[]>('/ratings/bulk', {
        items: [
          { ...base, score: 4 },
          { ...base, score: 2, personnelNumber: employee.personnelNumber },
          { skillId: skill.id, score: 2, ratingType: 'MANAGER_EVALUATION' },
          { ...base, score: 2.5 },
          { ...base, score: 3 },
        ],
      }).expect(200);
      const single = await post(`/employees/${employee.id}/ratings`, {
        skillId: skill.id,
        score: 4,
        ratingType: 'MANAGER_EVALUATION',
      }).expect(400);
      expect(response.body.data[0].error).toEqual(single.body.error);
      expect(response.body.data[1].error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'employeeId', message: expect.any(String) }],
      });
      expect(response.body.data[2].error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'employeeId', message: expect.any(String) }],
      });
      expect(response.body.data[3].error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'score', message: expect.any(String) }],
      });
      expect(response.body.data[4]).toMatchObject({ status: 'created' });
      expect((await get(`/employees/${employee.id}/ratings`).expect(200)).body.meta.total).toBe(1);
    });

    itIfPostgres('writes the ratings of a link another transaction commits meanwhile, on that link', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const [first, second] = [await createSkill(suite.app, suite.tenant), await createSkill(suite.app, suite.tenant)];
      const other = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await other.connect();
      try {
        await other.query('BEGIN');
        const [link] = (
          await other.query<{ id: string }>(
            `INSERT INTO person_skills (id, organisation_id, employee_id, skill_id, created_at)
             VALUES ($1, $2, $3, $4, now()) RETURNING id`,
            [newId(), suite.tenant.organisationId, employee.id, first.id],
          )
        ).rows;
        events.clear(suite.tenant.organisationId);
        const base = { employeeId: employee.id, ratingType: 'MANAGER_EVALUATION' };
        const answer = post<BulkItemResultResponse[]>('/ratings/bulk', {
          items: [
            { ...base, skillId: second.id, score: 1 },
            { ...base, skillId: first.id, score: 2 },
            { ...base, skillId: first.id, score: 3 },
          ],
        }).then((response) => response);
        // The bulk statement waits on the uncommitted link; once it commits, the statement cannot see it.
        await waitUntil(
          async () => {
            // Asked outside `other`, whose transaction would keep its first snapshot of pg_stat_activity.
            const [{ waiting }] = await dataSourceOf(suite.app).query<{ waiting: number }[]>(
              `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'WITH pair AS%'`,
            );
            return waiting > 0;
          },
          'the bulk statement waits on the link',
          { timeoutMs: 5000 },
        );
        await other.query('COMMIT');
        const response = await answer;
        expect(response.status).toBe(200);
        expect(response.body.meta).toEqual({ created: 3, updated: 0, unchanged: 0, failed: 0 });
        const ratings = (await get<RatingResponse[]>(`/employees/${employee.id}/ratings`).expect(200)).body.data;
        const byId = new Map(ratings.map((rating) => [rating.ratingId, rating]));
        const written = response.body.data.map((item) => byId.get(item.id!)!);
        expect(written.map((rating) => rating.score)).toEqual([1, 2, 3]);
        expect(written[1].personSkillId).toBe(link.id);
        expect(written[2].personSkillId).toBe(link.id);
        expect(events.of(suite.tenant.organisationId).map((event) => event.data)).toEqual(
          written.map((rating) => ({ employeeId: employee.id, rating })),
        );
      } finally {
        await other.end();
      }
    });
  });

  describe('a crash in the middle of a bulk request', () => {
    itIfPostgres('keeps every acknowledged item and no half-applied request after SIGKILL and a restart', async () => {
      const env = { DATABASE_URL: process.env.TEST_DATABASE_URL!, SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY };
      const send = (port: number) =>
        fetch(`http://127.0.0.1:${port}/api/v1/employees/bulk`, {
          method: 'POST',
          headers: { Authorization: suite.tenant.bearer, 'Content-Type': 'application/json' },
          body: JSON.stringify({ items: Array.from({ length: 1000 }, () => employeeItem()) }),
        });
      const server = await startServer(env);
      let acknowledged = 0;
      try {
        for (let round = 0; round < 2; round++) {
          const answer = await send(server.port);
          expect(answer.status).toBe(200);
          acknowledged += ((await answer.json()) as { meta: { created: number } }).meta.created;
        }
        const cut = send(server.port).then(
          () => 'answered',
          () => 'cut',
        );
        await new Promise((resolve) => setTimeout(resolve, 150));
        await server.stop('SIGKILL');
        await cut;
      } finally {
        await server.stop('SIGKILL');
      }
      const restarted = await startServer(env);
      try {
        const list = await fetch(`http://127.0.0.1:${restarted.port}/api/v1/employees?limit=1`, {
          headers: { Authorization: suite.tenant.bearer },
        });
        const { total } = ((await list.json()) as { meta: { total: number } }).meta;
        expect(acknowledged).toBe(2000);
        // The request cut off committed whole or not at all.
        expect([2000, 3000]).toContain(total);
        const [{ events }] = await dataSourceOf(suite.app).query<{ events: number }[]>(
          `SELECT count(*)::int AS events FROM events WHERE organisation_id = $1`,
          [suite.tenant.organisationId],
        );
        expect(events).toBe(total);
      } finally {
        await restarted.stop();
      }
    });
  });
});
