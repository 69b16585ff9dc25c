import { execFileSync } from 'node:child_process';
import request from 'supertest';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { runCli } from '../../src/cli/run-cli';
import { cliWrite } from '../../src/database/write-context';
import { PositionsImportService } from '../../src/positions/import/positions-import.service';
import { RetentionJob } from '../../src/retention/retention.job';
import { apiClient } from '../support/api-client';
import { createTenant, TestTenant, testConfig } from '../support/app';
import { readFeed } from '../support/event-feed';
import { createEmployee, createSkill, unique } from '../support/people.factory';
import { itIfPostgres } from '../support/requirements';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';
import { WebhookReceiver } from '../support/webhook-receiver';

interface FeedEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
  changes?: object;
  actor: { type: string; id?: string };
  requestId: string | null;
}

const FIVE_EVENTS = ['employee.created', 'employee.updated', 'employee.deactivated', 'skill.rated', 'position.updated'];

/** The personal values of one person, each a string found nowhere else in the database. */
function personalValues(tag: string) {
  const mark = () => unique(`${tag}${Math.random().toString(36).slice(2, 8)}`);
  return {
    personnelNumber: mark(),
    firstName: mark(),
    lastName: mark(),
    businessEmail: `${mark()}@example.com`,
    title: mark(),
    renamedFirstName: mark(),
    renamedTitle: mark(),
    singleComment: mark(),
    putComment: mark(),
    bulkComment: mark(),
  };
}

type Person = ReturnType<typeof personalValues> & { id: string };

describe('data protection: erasure, the personal-data export and leavers', () => {
  const certificate = testCertificate();
  const suite = useTestApp({
    config: { employeeEraseAfterDays: 30 },
    imports: [TrustCertificateModule.of(certificate)],
    app: { dispatch: true },
    tenant: 'none',
  });
  let receiver: WebhookReceiver;
  let tenant: TestTenant;
  let foreign: TestTenant;
  let withoutPrivacy: TestTenant;
  let webhookId: string;
  let skillIds: string[];

  const api = (as: () => TestTenant = () => tenant) => apiClient(() => suite.app, as);

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
    tenant = await createTenant(suite.app, 'Privacy');
    foreign = await createTenant(suite.app, 'Privacy foreign');
    const limited = await suite.app
      .get(ApiKeysService)
      .create(tenant.organisationId, { scopes: ['read', 'write', 'events'] });
    withoutPrivacy = { ...tenant, key: limited.key, keyId: limited.id, bearer: `Bearer ${limited.key}` };
    webhookId = (
      await api()
        .post('/webhooks', { url: receiver.url('/privacy'), events: FIVE_EVENTS })
        .expect(201)
    ).body.data.id;
    skillIds = [(await createSkill(suite.app, tenant)).id, (await createSkill(suite.app, tenant)).id];
  });
  afterAll(async () => {
    await receiver.stop();
  });

  /** An employee with every kind of personal data the service keeps: PATCHes, ratings of three kinds, a position. */
  async function personWithHistory(tag: string): Promise<Person> {
    const values = personalValues(tag);
    const { personnelNumber, firstName, lastName, businessEmail, title } = values;
    const { id } = await createEmployee(suite.app, tenant, {
      personnelNumber,
      firstName,
      lastName,
      businessEmail,
      title,
    });
    await api().patch(`/employees/${id}`, { firstName: values.renamedFirstName }).expect(200);
    await api().patch(`/employees/${id}`, { title: values.renamedTitle }).expect(200);
    const rating = { score: 3, ratingType: 'MANAGER_EVALUATION' };
    await api()
      .post(`/employees/${id}/ratings`, { ...rating, skillId: skillIds[0], comment: values.singleComment })
      .set('Idempotency-Key', `rate-${id}`)
      .expect(201);
    await api()
      .put(`/employees/${id}/skills/${skillIds[1]}`, { ...rating, comment: values.putComment })
      .expect(200);
    await api()
      .post('/ratings/bulk', {
        items: [{ ...rating, employeeId: id, skillId: skillIds[1], comment: values.bulkComment }],
      })
      .expect(200);
    await suite.app.get(PositionsImportService).import(
      tenant.organisationId,
      [
        {
          ref: unique('ref'),
          name: unique('Position'),
          status: 'OPEN',
          replacesPersonnelNumber: personnelNumber,
          requiredSkills: [],
          possibleReplacements: [],
        },
      ],
      cliWrite(),
    );
    return { ...values, id };
  }

  const personalStrings = (person: Person) =>
    Object.entries(person)
      .filter(([field]) => field !== 'id')
      .map(([, value]) => value);

  const feedPage = async (query: string) => (await api().get(`/events${query}`).expect(200)).body;

  it('erases every copy of a person, keeps the feed in place, and leaves another person whole', async () => {
    const erased = await personWithHistory('gone');
    const kept = await personWithHistory('kept');
    // Every delivery of both is settled, so webhook_deliveries holds their final rows.
    await waitUntil(async () => {
      const { body } = await api().get(`/webhooks/${webhookId}/deliveries?limit=100`).expect(200);
      return body.data.length === 14 && body.data.every((each: { status: string }) => each.status !== 'pending');
    }, 'the deliveries of both people are settled');

    const before = await readFeed<FeedEvent>(feedPage, (events) => events.length >= 16);
    const half = Math.floor(before.length / 2);
    const firstHalf = (await feedPage(`?limit=${half}`)).data as FeedEvent[];

    const requestId = `erase-${erased.id}`;
    const { body } = await api().post(`/employees/${erased.id}/erase`, {}).set('X-Request-Id', requestId).expect(200);
    expect(body).toEqual({ success: true, data: { id: erased.id, erasedAt: expect.any(String) } });

    // The reader goes on from where it stopped: every event once, in the same order, plus employee.erased.
    const rest = await readFeed<FeedEvent>(
      (query) => feedPage(`${query}&after=${firstHalf[firstHalf.length - 1].id}`),
      (events) => events.some((event) => event.event === 'employee.erased'),
    );
    const after = [...firstHalf, ...rest];
    expect(after.map((event) => event.id)).toEqual([...before.map((event) => event.id), after.at(-1)!.id]);
    // What the feed lists now: the same events, the erased person's reduced.
    const now = await readFeed<FeedEvent>(feedPage, (events) => events.length === after.length);
    expect(now.map((event) => event.id)).toEqual(after.map((event) => event.id));
    expect(after.at(-1)).toEqual({
      id: expect.any(String),
      event: 'employee.erased',
      timestamp: body.data.erasedAt,
      data: { id: erased.id, erasedAt: body.data.erasedAt },
      actor: { type: 'api_key', id: tenant.keyId },
      requestId,
    });
    const naming = (event: FeedEvent) => JSON.stringify(event).includes(erased.id);
    for (const event of now.filter(naming).slice(0, -1)) {
      expect(event.changes).toBeUndefined();
      if (event.event.startsWith('employee.')) expect(event.data).toEqual({ id: erased.id });
      else if (event.event === 'skill.rated') expect(event.data).toEqual({ employeeId: erased.id });
      else expect(event.data.replacesPerson).toEqual({ id: erased.id, firstName: null, lastName: null });
    }
    expect(now.filter(naming).map((event) => event.event)).toEqual([
      'employee.created',
      'employee.updated',
      'employee.updated',
      'skill.rated',
      'skill.rated',
      'skill.rated',
      'position.updated',
      'employee.erased',
    ]);

    // The kept Idempotency-Key response is redacted too (so no longer a Rating, which the document describes),
    // and a retry still changes nothing.
    const retry = await request(suite.app.getHttpServer())
      .post(`/api/v1/employees/${erased.id}/ratings`)
      .set('Authorization', tenant.bearer)
      .send({
        score: 3,
        ratingType: 'MANAGER_EVALUATION',
        skillId: skillIds[0],
        comment: erased.singleComment,
      })
      .set('Idempotency-Key', `rate-${erased.id}`)
      .expect(201);
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(retry.body).toEqual({ success: true, data: { employeeId: erased.id } });

    // The id is unknown everywhere; its personnel number and email are free.
    await api().get(`/employees/${erased.id}`).expect(404);
    await api().patch(`/employees/${erased.id}`, { title: 'x' }).expect(404);
    await api().get(`/employees/${erased.id}/ratings`).expect(404);
    await api().get(`/employees/${erased.id}/personal-data`).expect(404);
    await api().post(`/employees/${erased.id}/erase`, {}).expect(404);
    const listed = await api()
      .get(`/employees?search=${encodeURIComponent(erased.lastName)}`)
      .expect(200);
    expect(listed.body.data).toEqual([]);
    const skill = await api().get(`/skills/${skillIds[0]}`).expect(200);
    expect(skill.body.data.employeeCount).toBe(1);

    // A redelivery of one of the erased person's events sends the redacted body.
    const deliveries = (await api().get(`/webhooks/${webhookId}/deliveries?limit=100`).expect(200)).body.data;
    const created = after.find((event) => event.event === 'employee.created' && naming(event))!;
    const delivery = deliveries.find((each: { eventId: string }) => each.eventId === created.id);
    receiver.requests.length = 0;
    await api().post(`/webhooks/${webhookId}/deliveries/${delivery.deliveryId}/redeliver`, {}).expect(202);
    await waitUntil(async () => receiver.requests.length > 0, 'the redelivery arrives');
    expect(JSON.parse(receiver.requests[0].body.toString('utf8')).data).toEqual({ id: erased.id });

    await dumpHolds(personalStrings(erased), personalStrings(kept));
    await createEmployee(suite.app, tenant, {
      personnelNumber: erased.personnelNumber,
      businessEmail: erased.businessEmail,
    });
  });

  /** `pg_dump --data-only` of the test database: none of `gone` is in it, every one of `there` is. */
  async function dumpHolds(gone: string[], there: string[]): Promise<void> {
    if (!dumpable()) return;
    const dump = execFileSync('pg_dump', ['--data-only', process.env.TEST_DATABASE_URL!], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    // A bytea column (events.body) is dumped in hex: a value is there as its text or as its UTF-8 bytes in hex.
    const holds = (value: string) => dump.includes(value) || dump.includes(Buffer.from(value, 'utf8').toString('hex'));
    expect(gone.filter(holds)).toEqual([]);
    expect(there.filter((value) => !holds(value))).toEqual([]);
  }

  /** pg_dump reads a PostgreSQL server; the one-session embedded database is not one it can reach. */
  function dumpable(): boolean {
    const reachable = process.env.TEST_HAS_POSTGRES === 'true';
    if (!reachable) process.stderr.write('skipped the pg_dump check: the run uses the embedded database\n');
    return reachable;
  }

  it('exports everything held about an active or a deactivated person, oldest rating first', async () => {
    const person = await personWithHistory('export');
    const candidate = await createEmployee(suite.app, tenant);
    const position = unique('Candidacy');
    await suite.app.get(PositionsImportService).import(
      tenant.organisationId,
      [
        {
          ref: unique('ref'),
          name: position,
          status: 'OPEN',
          requiredSkills: [],
          possibleReplacements: [
            {
              candidatePersonnelNumber: candidate.personnelNumber,
              readyAt: '2027-01-01T00:00:00Z',
              status: 'PROPOSED',
            },
          ],
        },
      ],
      cliWrite(),
    );
    await waitUntil(async () => {
      const { body } = await api().get(`/employees/${person.id}/personal-data`).expect(200);
      return body.data.recipients.every((each: { outcome: string | null }) => each.outcome !== null);
    }, 'the deliveries are settled');

    const { body } = await api().get(`/employees/${person.id}/personal-data`).expect(200);
    const data = body.data;
    expect(data.employee).toMatchObject({
      id: person.id,
      firstName: person.renamedFirstName,
      title: person.renamedTitle,
      skills: expect.any(Array),
    });
    expect(data.ratings.map((rating: { comment: string }) => rating.comment)).toEqual([
      person.singleComment,
      person.putComment,
      person.bulkComment,
    ]);
    expect(data.positions.replaces).toEqual([{ id: expect.any(String), name: expect.any(String) }]);
    expect(data.positions.candidateFor).toEqual([]);
    expect(data.events.map((event: FeedEvent) => event.event)).toEqual([
      'employee.created',
      'employee.updated',
      'employee.updated',
      'skill.rated',
      'skill.rated',
      'skill.rated',
      'position.updated',
    ]);
    const feed = await readFeed<FeedEvent>(feedPage, (events) =>
      events.some((event) => event.id === data.events[6].id),
    );
    expect(data.events).toEqual(feed.filter((event) => data.events.some((named: FeedEvent) => named.id === event.id)));
    expect(data.recipients).toHaveLength(7);
    expect(data.recipients[0]).toEqual({
      webhookId,
      url: receiver.url('/privacy'),
      event: 'employee.created',
      eventId: data.events[0].id,
      sentAt: expect.any(String),
      outcome: 'delivered',
    });

    await api().del(`/employees/${candidate.id}`).expect(200);
    const deactivated = (await api().get(`/employees/${candidate.id}/personal-data`).expect(200)).body.data;
    expect(deactivated.employee.leftAt).toEqual(expect.any(String));
    expect(deactivated.positions).toEqual({
      replaces: [],
      candidateFor: [
        { positionId: expect.any(String), name: position, readyAt: '2027-01-01T00:00:00.000Z', status: 'PROPOSED' },
      ],
    });
    expect(deactivated.events.map((event: FeedEvent) => event.event)).toEqual([
      'employee.created',
      'employee.deactivated',
    ]);
  });

  it('answers 404 for a foreign or malformed id and 403 to a key without privacy', async () => {
    const own = await createEmployee(suite.app, tenant);
    const theirs = await createEmployee(suite.app, foreign);
    await api().get(`/employees/${theirs.id}/personal-data`).expect(404);
    await api().post(`/employees/${theirs.id}/erase`, {}).expect(404);
    await api().get('/employees/not-a-uuid/personal-data').expect(404);
    await api().post('/employees/not-a-uuid/erase', {}).expect(404);
    await api(() => withoutPrivacy)
      .get(`/employees/${own.id}/personal-data`)
      .expect(403);
    const refused = await api(() => withoutPrivacy)
      .post(`/employees/${own.id}/erase`, {})
      .expect(403);
    expect(refused.body.error).toEqual({ message: 'This API key lacks the "privacy" scope', code: 'FORBIDDEN' });
    await api(() => foreign)
      .get(`/employees/${theirs.id}`)
      .expect(200);
    await api().get(`/employees/${own.id}`).expect(200);
  });

  it("erases leavers: the CLI's dry run erases nobody, the retention job erases those past the setting", async () => {
    const longGone = await createEmployee(suite.app, tenant);
    const recent = await createEmployee(suite.app, tenant);
    await api().patch(`/employees/${longGone.id}`, { leftAt: '2020-01-31T09:00:00Z' }).expect(200);
    await api().del(`/employees/${recent.id}`).expect(200);

    const cli = async (...argv: string[]) => {
      let stdout = '';
      const code = await runCli(argv, { stdout: (chunk) => (stdout += chunk), stderr: () => undefined }, testConfig());
      return { code, output: JSON.parse(stdout) as unknown };
    };
    const dryRun = await cli(
      'employees',
      'erase-leavers',
      '--org',
      tenant.organisationId,
      '--older-than',
      '365d',
      '--dry-run',
      '--json',
    );
    expect(dryRun).toEqual({ code: 0, output: { wouldErase: [longGone.id] } });
    await api().get(`/employees/${longGone.id}`).expect(200);

    await suite.app.get(RetentionJob).run();
    await api().get(`/employees/${longGone.id}`).expect(404);
    await api().get(`/employees/${recent.id}`).expect(200);
    const feed = await readFeed<FeedEvent>(feedPage, (events) =>
      events.some((event) => event.event === 'employee.erased' && event.data.id === longGone.id),
    );
    expect(feed.find((event) => event.event === 'employee.erased' && event.data.id === longGone.id)).toMatchObject({
      actor: { type: 'retention' },
      requestId: null,
    });

    const erasing = await cli(
      'employees',
      'erase-leavers',
      '--org',
      tenant.organisationId,
      '--older-than',
      '0d',
      '--json',
    );
    expect(erasing.code).toBe(0);
    expect((erasing.output as { erased: string[] }).erased).toContain(recent.id);
    await api().get(`/employees/${recent.id}`).expect(404);
  });

  itIfPostgres('keeps the dump check honest: the strings of a person not erased are found', async () => {
    const person = await personWithHistory('control');
    await dumpHolds([], personalStrings(person));
  });
});
