import { Client } from 'pg';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { ConflictError } from '../../src/errors/errors';
import { DomainEvents } from '../../src/events/domain-events';
import { IdempotencyInterceptor } from '../../src/idempotency/idempotency.interceptor';
import { RetentionJob } from '../../src/retention/retention.job';
import { checkedRequest } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { createEmployee, createSkill, unique } from '../support/people.factory';
import { itIfPostgres } from '../support/requirements';
import { useTestApp } from '../support/use-test-app';

/** A valid new employee, as one request body. */
const newEmployee = () => ({
  personnelNumber: unique('P'),
  firstName: 'Ada',
  lastName: 'Lovelace',
  businessEmail: `${unique('ada')}@example.com`,
});

describe('safe retries: Idempotency-Key on every POST', () => {
  const suite = useTestApp();

  const post = (path: string, body: object | string, key?: string, as: TestTenant = suite.tenant, on = suite.app) => {
    const call = checkedRequest(on).post(`/api/v1${path}`).set('Authorization', as.bearer);
    if (key !== undefined) call.set('Idempotency-Key', key);
    return typeof body === 'string' ? call.set('Content-Type', 'application/json').send(body) : call.send(body);
  };
  const employeesOf = async (as: TestTenant) =>
    (await dataSourceOf(suite.app).query<{ id: string }[]>(`SELECT id FROM employees WHERE organisation_id = $1`, [
      as.organisationId,
    ])) as { id: string }[];
  const eventsOf = async (as: TestTenant) =>
    (await dataSourceOf(suite.app).query<{ event: string }[]>(`SELECT event FROM events WHERE organisation_id = $1`, [
      as.organisationId,
    ])) as { event: string }[];

  /** Runs `work` while publishing employee.created fails with `error`: after the employee is inserted. */
  const failingEmployeeCreated = async (error: Error, work: () => Promise<unknown>) => {
    const publish = jest.spyOn(suite.app.get(DomainEvents), 'publish').mockRejectedValue(error);
    try {
      await work();
    } finally {
      publish.mockRestore();
    }
  };

  it('replays the first response to the same request, key order and spacing aside, changing nothing', async () => {
    const body = newEmployee();
    const first = await post('/employees', body, 'create-ada').expect(201);
    expect(first.headers['idempotency-replayed']).toBeUndefined();

    const reordered = `{ "businessEmail": "${body.businessEmail}",  "lastName": "Lovelace", "firstName": "Ada", "personnelNumber": "${body.personnelNumber}" }`;
    const replay = await post('/employees', reordered, 'create-ada').expect(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);

    expect(await employeesOf(suite.tenant)).toHaveLength(1);
    expect(await eventsOf(suite.tenant)).toEqual([{ event: 'employee.created' }]);
  });

  it('answers the same key with another body or path 422 IDEMPOTENCY_KEY_REUSED', async () => {
    await post('/employees', newEmployee(), 'reused').expect(201);
    const otherBody = await post('/employees', newEmployee(), 'reused').expect(422);
    expect(otherBody.body).toEqual({
      success: false,
      error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) },
    });
    await post('/skills', { name: 'Reused' }, 'reused').expect(422);
    expect(await employeesOf(suite.tenant)).toHaveLength(1);
  });

  it('keeps a 4xx answer and replays it', async () => {
    const bad = { name: unique('Scale'), ratingScaleMin: 9, ratingScaleMax: 1 };
    const first = await post('/skills', bad, 'bad-scale').expect(400);
    const replay = await post('/skills', bad, 'bad-scale').expect(400);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('keeps a 4xx raised after the route wrote, with what it wrote rolled back', async () => {
    const body = newEmployee();
    await failingEmployeeCreated(new ConflictError('refused after the insert'), async () => {
      const first = await post('/employees', body, 'late-4xx').expect(409);
      const replay = await post('/employees', body, 'late-4xx').expect(409);
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expect(replay.text).toBe(first.text);
    });
    expect(await employeesOf(suite.tenant)).toHaveLength(0);
    expect(await eventsOf(suite.tenant)).toHaveLength(0);
  });

  it('keeps keys and bodies with quotes, backslashes and other characters SQL treats specially', async () => {
    const key = `it's; \\' -- "x" $1 $$`;
    const body = { ...newEmployee(), firstName: `O'Brien \\ "q" \u00fc 😀 $$ ;--` };
    const first = await post('/employees', body, key).expect(201);
    expect(first.body.data.firstName).toBe(body.firstName);
    const replay = await post('/employees', body, key).expect(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    await post('/employees', newEmployee(), key).expect(422);
    expect(await employeesOf(suite.tenant)).toHaveLength(1);
  });

  it('keeps nothing for a 5xx: the retry runs again and makes one change', async () => {
    const body = newEmployee();
    await failingEmployeeCreated(new Error('the outbox is down'), () =>
      post('/employees', body, 'after-500').expect(500),
    );
    expect(await employeesOf(suite.tenant)).toHaveLength(0);
    const retry = await post('/employees', body, 'after-500').expect(201);
    expect(retry.headers['idempotency-replayed']).toBeUndefined();
    expect(await employeesOf(suite.tenant)).toHaveLength(1);
  });

  it('commits the change with its kept answer: when keeping fails, nothing is written', async () => {
    const dataSource = dataSourceOf(suite.app);
    const trigger = `fail_keys_${suite.tenant.organisationId.replace(/-/g, '')}`;
    await dataSource.query(`
      CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.organisation_id = '${suite.tenant.organisationId}' THEN RAISE EXCEPTION 'disk full'; END IF;
        RETURN NEW;
      END $$`);
    await dataSource.query(
      `CREATE TRIGGER ${trigger} BEFORE INSERT ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION ${trigger}()`,
    );
    const body = newEmployee();
    try {
      await post('/employees', body, 'crash-between').expect(500);
    } finally {
      await dataSource.query(`DROP TRIGGER ${trigger} ON idempotency_keys`);
      await dataSource.query(`DROP FUNCTION ${trigger}()`);
    }
    expect(await employeesOf(suite.tenant)).toHaveLength(0);
    expect(await eventsOf(suite.tenant)).toHaveLength(0);
    await post('/employees', body, 'crash-between').expect(201);
    expect(await employeesOf(suite.tenant)).toHaveLength(1);
  });

  it('makes one change for two concurrent requests with one key: one 201, the other 409 or the replay', async () => {
    const body = newEmployee();
    const answers = await Promise.all([post('/employees', body, 'race'), post('/employees', body, 'race')]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    const originals = answers.filter((answer) => answer.status === 201 && !answer.headers['idempotency-replayed']);
    expect(originals).toHaveLength(1);
    for (const conflict of answers.filter((answer) => answer.status === 409)) {
      expect(conflict.body.error.code).toBe('CONFLICT');
      expect(Number(conflict.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await employeesOf(suite.tenant)).toHaveLength(1);
  });

  itIfPostgres('answers 409 with Retry-After while the key is claimed by another instance', async () => {
    const holder = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))`, [
        suite.tenant.organisationId,
        'claimed',
      ]);
      const response = await post('/employees', newEmployee(), 'claimed').expect(409);
      expect(response.headers['retry-after']).toBe('1');
      await holder.query('ROLLBACK');
      await post('/employees', newEmployee(), 'claimed').expect(201);
    } finally {
      await holder.end();
    }
  });

  it('keeps keys per organisation: the same key in two organisations makes two changes', async () => {
    const other = await createTenant(suite.app);
    await post('/employees', newEmployee(), 'shared-key').expect(201);
    const theirs = await post('/employees', newEmployee(), 'shared-key', other).expect(201);
    expect(theirs.headers['idempotency-replayed']).toBeUndefined();
    expect(await employeesOf(suite.tenant)).toHaveLength(1);
    expect(await employeesOf(other)).toHaveLength(1);
  });

  it('replays across two instances on one database', async () => {
    const second = await createTestApp();
    try {
      const body = newEmployee();
      const first = await post('/employees', body, 'two-instances').expect(201);
      const replay = await post('/employees', body, 'two-instances', suite.tenant, second).expect(201);
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expect(replay.text).toBe(first.text);
      expect(await employeesOf(suite.tenant)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('works on every POST and replays its own status: a rating (201), a webhook test (200), a redelivery (202)', async () => {
    const employee = await createEmployee(suite.app, suite.tenant);
    const skill = await createSkill(suite.app, suite.tenant);
    const rating = { skillId: skill.id, score: 3, ratingType: 'SELF_ASSESMENT' };
    await post(`/employees/${employee.id}/ratings`, rating, 'rate-once').expect(201);
    const again = await post(`/employees/${employee.id}/ratings`, rating, 'rate-once').expect(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    const ratings = await dataSourceOf(suite.app).query<unknown[]>(`SELECT 1 FROM ratings WHERE employee_id = $1`, [
      employee.id,
    ]);
    expect(ratings).toHaveLength(1);

    const webhook = await post('/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['skill.rated'] }, 'hook')
      .expect(201)
      .then((response) => response.body.data as { id: string });
    const test = await post(`/webhooks/${webhook.id}/test`, {}, 'ping').expect(200);
    const testAgain = await post(`/webhooks/${webhook.id}/test`, {}, 'ping').expect(200);
    expect(testAgain.text).toBe(test.text);
    const deliveryId = (test.body.data as { deliveryId: string }).deliveryId;
    const redelivery = await post(`/webhooks/${webhook.id}/deliveries/${deliveryId}/redeliver`, {}, 'again').expect(
      202,
    );
    const redeliveryAgain = await post(`/webhooks/${webhook.id}/deliveries/${deliveryId}/redeliver`, {}, 'again');
    expect(redeliveryAgain.status).toBe(202);
    expect(redeliveryAgain.text).toBe(redelivery.text);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not printable ASCII', 'clé'],
    ['a control character', 'a\tb'],
  ])('refuses a key that is %s with 400 naming the header', async (_case, key) => {
    const response = await post('/employees', newEmployee(), key).expect(400);
    expect(response.body.error.details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    expect(await employeesOf(suite.tenant)).toHaveLength(0);
  });

  it('takes a key of 255 printable characters', async () => {
    await post('/employees', newEmployee(), `${' ~'.repeat(127)}x`).expect(201);
  });

  it('looks at the key only after the rate limit and the API key: a 401 keeps nothing', async () => {
    const body = newEmployee();
    await checkedRequest(suite.app)
      .post('/api/v1/employees')
      .set('Idempotency-Key', 'after-401')
      .send(body)
      .expect(401);
    const response = await post('/employees', body, 'after-401').expect(201);
    expect(response.headers['idempotency-replayed']).toBeUndefined();
  });

  it('runs a request again once its key expired (24 h), and the retention job removes expired keys', async () => {
    const body = newEmployee();
    await post('/employees', body, 'old-key').expect(201);
    await dataSourceOf(suite.app).query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE organisation_id = $1`,
      [suite.tenant.organisationId],
    );
    // Run again, it meets its own first change: the duplicate personnelNumber.
    const rerun = await post('/employees', body, 'old-key').expect(409);
    expect(rerun.headers['idempotency-replayed']).toBeUndefined();

    await post('/employees', newEmployee(), 'fresh-key').expect(201);
    const report = await suite.app.get(RetentionJob).run(new Date(Date.now() + 25 * 60 * 60 * 1000));
    expect(report?.['idempotency keys']?.removed).toBeGreaterThanOrEqual(2);
    const left = await dataSourceOf(suite.app).query<unknown[]>(
      `SELECT 1 FROM idempotency_keys WHERE organisation_id = $1`,
      [suite.tenant.organisationId],
    );
    expect(left).toHaveLength(0);
  });

  it('leaves requests without a key exactly as before', async () => {
    const body = newEmployee();
    const first = await post('/employees', body).expect(201);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    await post('/employees', body).expect(409);
    expect((first.body.data as EmployeeResponse).personnelNumber).toBe(body.personnelNumber);
  });

  it('runs a POST without a key outside the idempotency interceptor, a keyed or malformed one inside', async () => {
    const intercept = jest.spyOn(IdempotencyInterceptor.prototype, 'intercept');
    try {
      await post('/employees', newEmployee()).expect(201);
      await post('/employees', { personnelNumber: '' }).expect(400);
      expect(intercept).not.toHaveBeenCalled();
      await post('/employees', newEmployee(), 'inside').expect(201);
      await post('/employees', newEmployee(), '').expect(400);
      expect(intercept).toHaveBeenCalledTimes(2);
    } finally {
      intercept.mockRestore();
    }
  });
});
