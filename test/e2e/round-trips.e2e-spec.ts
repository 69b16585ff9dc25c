import { Client } from 'pg';
import { dataSourceOf } from '../support/app';
import { createEmployee, createSkill, unique } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';

/**
 * The round trips to PostgreSQL a write request costs, seen at pg's Client, which every connection of the pool
 * is: a statement sent while its connection still owes the answer to an earlier one travels with it (the pool
 * pipelines). An event and its webhook deliveries are one statement, which travels with COMMIT; a keyed POST adds
 * the claim of its key, and its kept response travels with COMMIT too.
 */
describe('round trips per request', () => {
  // Without read replicas, also in the run on them: with replicas a write costs one more, its X-Consistency-Token
  // (docs/adr/0012).
  const suite = useTestApp({ config: { dispatchMode: 'off', databaseReplicaUrls: [] } });
  /** Each round trip's statements, in the order sent. */
  let roundTrips: string[][];
  let query: jest.SpyInstance;
  beforeEach(async () => {
    await createEmployee(suite.app, suite.tenant);
    // Its first use makes the key's last use due, written beside the request (bookkeeping): let it land first.
    await waitUntil(
      async () =>
        (
          await dataSourceOf(suite.app).query('SELECT 1 FROM api_keys WHERE id = $1 AND last_used_at IS NOT NULL', [
            suite.tenant.keyId,
          ])
        ).length === 1,
      "the key's last use is written",
    );
    roundTrips = [];
    const unanswered = new WeakMap<Client, number>();
    query = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      const [text] = args;
      const statement = (typeof text === 'string' ? text : (text as { text: string }).text).trim().replace(/\s+/g, ' ');
      // Authentication is not counted: a key is cached for KEY_CACHE_TTL_MS after its lookup, so whether a request
      // looks it up again depends on how long the steps before it took (seconds, on a busy embedded database).
      if (KEY_LOOKUP.test(statement)) return original.apply(this, args);
      const owed = unanswered.get(this) ?? 0;
      if (owed > 0 && this.pipeline && roundTrips.length > 0) roundTrips[roundTrips.length - 1].push(statement);
      else roundTrips.push([statement]);
      unanswered.set(this, owed + 1);
      const answered = () => unanswered.set(this, (unanswered.get(this) ?? 1) - 1);
      const result = original.apply(this, args);
      void (result as Promise<unknown>).then(answered, answered);
      return result;
    });
  });
  afterEach(() => query.mockRestore());

  const original = Client.prototype.query as (...args: unknown[]) => unknown;
  /** The guard's lookup of a key by its hash (ApiKeysRepository.findActiveByHash). */
  const KEY_LOOKUP = /^SELECT "ApiKey"\..* FROM "api_keys" "ApiKey" WHERE .*"key_hash" = /;
  const { post, get, call } = suite.api;

  /** The round trips made while `request` ran, each as its statements with their whitespace collapsed. */
  async function roundTripsOf(request: () => PromiseLike<unknown>): Promise<string[][]> {
    roundTrips.length = 0;
    await request();
    return roundTrips;
  }

  const INSERT_EMPLOYEE = expect.stringMatching(/^SELECT insert_employees\(/) as unknown;
  /** events/ records the event and webhooks/ queues its deliveries in this one statement. */
  const RECORD_EVENTS = expect.stringMatching(
    /^WITH recorded AS MATERIALIZED \(SELECT record_events_v2\(.*\bwebhook_fan_out\(/,
  ) as unknown;

  const employee = () => {
    const id = unique('rt');
    return { personnelNumber: id, firstName: 'Ada', lastName: 'Lovelace', businessEmail: `${id}@example.com` };
  };

  it('POST /employees costs 3: BEGIN, the employee, the event with its deliveries travelling with COMMIT', async () => {
    const sent = await roundTripsOf(() => post('/employees', employee()).expect(201));
    expect(sent).toEqual([['START TRANSACTION'], [INSERT_EMPLOYEE], [RECORD_EVENTS, 'COMMIT']]);
  });

  it('POST /employees records the event and its deliveries in one statement, announced after the commit', async () => {
    await post('/webhooks', { url: 'https://127.0.0.1:1/hook', events: ['employee.created'] }).expect(201);
    const sent = await roundTripsOf(async () => {
      await post('/employees', employee()).expect(201);
      // With DISPATCH_MODE=off the workers are woken by a NOTIFY sent on its own once the change committed.
      const deadline = Date.now() + 2000;
      while (!roundTrips.flat().some((text) => text.includes('pg_notify')) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    expect(sent).toEqual([
      ['START TRANSACTION'],
      [INSERT_EMPLOYEE],
      [RECORD_EVENTS, 'COMMIT'],
      [expect.stringMatching(/^SELECT pg_notify\('webhook_deliveries'/)],
    ]);
  });

  it('POST /employees with an Idempotency-Key costs 4: the claim more, the kept response travels with COMMIT', async () => {
    const sent = await roundTripsOf(() =>
      post('/employees', employee()).set('Idempotency-Key', unique('key')).expect(201),
    );
    expect(sent).toEqual([
      ['START TRANSACTION'],
      [expect.stringMatching(/claim_idempotency_key/)],
      [INSERT_EMPLOYEE],
      [RECORD_EVENTS, expect.stringMatching(/^INSERT INTO idempotency_keys/), 'COMMIT'],
    ]);
  });

  // Issue 47: versions must not cost a write that names none, nor one that names the current version.
  it.each([
    ['without If-Match', {}],
    ['with the current If-Match', { 'If-Match': '"1"' }],
    ['with the current Base-Version', { 'Base-Version': '1' }],
  ])(
    'PATCH /employees/{id} %s costs 4: BEGIN, the locked row, the update, the event with COMMIT',
    async (_case, headers) => {
      const patched = await createEmployee(suite.app, suite.tenant);
      const sent = await roundTripsOf(() => {
        const request = call('patch', `/employees/${patched.id}`);
        for (const [name, value] of Object.entries(headers)) request.set(name, value);
        return request.send({ title: 'CTO' }).expect(200);
      });
      expect(sent).toEqual([
        ['START TRANSACTION'],
        [expect.stringMatching(/ FROM employees employee .*FOR UPDATE OF employee$/s)],
        [expect.stringMatching(/^WITH conflict AS .*UPDATE employees /s)],
        [RECORD_EVENTS, 'COMMIT'],
      ]);
    },
  );

  it('POST /employees/{id}/ratings costs 3: BEGIN, the checked rating, the event with its deliveries and COMMIT', async () => {
    const rated = await createEmployee(suite.app, suite.tenant);
    const skill = await createSkill(suite.app, suite.tenant);
    const sent = await roundTripsOf(() =>
      post(`/employees/${rated.id}/ratings`, { skillId: skill.id, score: 4, ratingType: 'SELF_ASSESMENT' }).expect(201),
    );
    expect(sent).toEqual([
      ['START TRANSACTION'],
      [expect.stringMatching(/^SELECT \* FROM insert_rating_if_rateable\(/)],
      [RECORD_EVENTS, 'COMMIT'],
    ]);
  });

  // Issue 46: a top group's subtree holds half an ESCO-sized catalogue; its total reads the links' group index alone.
  it('GET /skills?groupId= reads the subtree, then the page beside its total counted on the links', async () => {
    const parent = (await post<{ id: string }>('/skill-groups', { name: unique('family') }).expect(201)).body.data;
    const child = (
      await post<{ id: string }>('/skill-groups', { name: unique('kind'), parentIds: [parent.id] }).expect(201)
    ).body.data;
    await post('/skills', { name: unique('grouped'), groupIds: [child.id] }).expect(201);
    const sent = await roundTripsOf(async () => {
      const listed = await get<unknown[]>(`/skills?groupId=${parent.id}`).expect(200);
      expect(listed.body.meta).toMatchObject({ total: 1 });
    });
    expect(sent[0]).toEqual([expect.stringMatching(/^SELECT skill_group_subtree_v1\(/)]);
    expect(sent.slice(1).flat()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^SELECT skill_group_skill_count_v1\(/),
        expect.stringMatching(/ FROM skills s WHERE .* ORDER BY /),
      ]),
    );
    expect(sent.flat()).toHaveLength(3);
  });

  it('POST /ratings/bulk of 1,000 costs 5: BEGIN, the employees, the skills, the ratings, the events and COMMIT', async () => {
    const rated = await Promise.all(Array.from({ length: 4 }, () => createEmployee(suite.app, suite.tenant)));
    const skills = await Promise.all(Array.from({ length: 2 }, () => createSkill(suite.app, suite.tenant)));
    const items = Array.from({ length: 1000 }, (_item, index) => ({
      personnelNumber: rated[index % rated.length].personnelNumber,
      skillName: skills[index % skills.length].name,
      score: index % 6,
      ratingType: 'MANAGER_EVALUATION',
    }));
    const sent = await roundTripsOf(() => post('/ratings/bulk', { items }).expect(200));
    expect(sent).toEqual([
      ['START TRANSACTION'],
      [expect.stringMatching(/ FROM employees /)],
      [expect.stringMatching(/ FROM skills /)],
      [expect.stringMatching(/^WITH pair AS .*\bINSERT INTO ratings /)],
      [RECORD_EVENTS, 'COMMIT'],
    ]);
  });
});
