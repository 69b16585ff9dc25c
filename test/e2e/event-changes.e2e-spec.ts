import { AppConfig } from '../../src/config/config';
import { apiClient } from '../support/api-client';
import { createTenant, TestTenant } from '../support/app';
import { readFeed } from '../support/event-feed';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { useTestApp } from '../support/use-test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

interface FeedEvent {
  id: string;
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
  changes?: Record<string, { previous: unknown; current: unknown }>;
  actor: { type: string; id?: string };
  requestId: string | null;
}

/** Dispatching apps poll often, so a delivery comes soon after its commit. */
const FAST_POLL: Partial<AppConfig> = { webhookPollIntervalMs: 100 };

describe('every change in the feed: feed-only events, changes, actor, requestId, traceparent', () => {
  const certificate = testCertificate();
  const suite = useTestApp({
    config: FAST_POLL,
    imports: [TrustCertificateModule.of(certificate)],
    app: { dispatch: true },
    tenant: 'none',
  });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
  });
  afterAll(async () => {
    await receiver.stop();
  });

  const as = (who: TestTenant) =>
    apiClient(
      () => suite.app,
      () => who,
    );

  /** Every event of the organisation, once `count` are listed (see readFeed). */
  const feed = (who: TestTenant, count: number) =>
    readFeed<FeedEvent>(
      async (query) => (await as(who).get(`/events${query}`).expect(200)).body,
      (events) => events.length >= count,
    );

  const byApiKey = (who: TestTenant) => ({ type: 'api_key', id: who.keyId });

  const newEmployee = (n: string) => ({
    personnelNumber: `P-${n}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    businessEmail: `ada.${n}@example.com`,
  });

  it('records skill.created, skill.updated (with changes) and skill.deleted with the Skill, its id, actor and requestId', async () => {
    const tenant = await createTenant(suite.app);
    const created = await as(tenant)
      .post('/skills', { name: 'TypeScript', description: null })
      .set('X-Request-Id', 'skill-create-1')
      .expect(201);
    const skill = created.body.data;
    const updated = await as(tenant)
      .patch(`/skills/${skill.id}`, { description: 'Typed JavaScript', ratingScaleMax: 10, name: 'TypeScript' })
      .set('X-Request-Id', 'skill-update-1')
      .expect(200);
    await as(tenant).del(`/skills/${skill.id}`).set('X-Request-Id', 'skill-delete-1').expect(200);

    const events = await feed(tenant, 3);

    expect(events.map(({ id: _id, timestamp: _timestamp, ...event }) => event)).toEqual([
      { event: 'skill.created', data: skill, actor: byApiKey(tenant), requestId: 'skill-create-1' },
      {
        event: 'skill.updated',
        data: updated.body.data,
        changes: {
          description: { previous: null, current: 'Typed JavaScript' },
          ratingScaleMax: { previous: 5, current: 10 },
        },
        actor: byApiKey(tenant),
        requestId: 'skill-update-1',
      },
      { event: 'skill.deleted', data: { id: skill.id }, actor: byApiKey(tenant), requestId: 'skill-delete-1' },
    ]);
    expect(events[1].timestamp).toBe(updated.body.data.updatedAt);
    const filtered = (await as(tenant).get('/events?event=skill.deleted').expect(200)).body.data as FeedEvent[];
    expect(filtered.map((event) => event.event)).toEqual(['skill.deleted']);
  });

  it('records employee_skill.deleted with employeeId, skillId and personSkillId, also when removed with force=true', async () => {
    const tenant = await createTenant(suite.app);
    const employee = (await as(tenant).post('/employees', newEmployee('links')).expect(201)).body.data;
    const skills = [];
    for (const name of ['Go', 'Rust']) skills.push((await as(tenant).post('/skills', { name }).expect(201)).body.data);
    const rating = { score: 3, ratingType: 'MANAGER_EVALUATION' };
    const go = (await as(tenant).put(`/employees/${employee.id}/skills/${skills[0].id}`, rating).expect(200)).body.data;
    let rust;
    for (let n = 0; n < 6; n++) {
      rust = (await as(tenant).put(`/employees/${employee.id}/skills/${skills[1].id}`, rating).expect(200)).body.data;
    }
    await as(tenant).del(`/employees/${employee.id}/skills/${skills[0].id}`).expect(200);
    await as(tenant).del(`/employees/${employee.id}/skills/${skills[1].id}?force=true`).expect(200);

    const deleted = (await feed(tenant, 12)).filter((event) => event.event === 'employee_skill.deleted');

    expect(deleted.map((event) => event.data)).toEqual([
      { employeeId: employee.id, skillId: skills[0].id, personSkillId: go.personSkillId },
      { employeeId: employee.id, skillId: skills[1].id, personSkillId: rust.personSkillId },
    ]);
  });

  it('refuses a feed-only event name on POST /webhooks, as before', async () => {
    const tenant = await createTenant(suite.app);
    for (const name of ['skill.created', 'skill.updated', 'skill.deleted', 'employee_skill.deleted']) {
      const response = await as(tenant)
        .post('/webhooks', { url: receiver.url('/feed-only'), events: [name] })
        .expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('carries on employee.updated exactly the fields the PATCH altered, dates as the API writes them', async () => {
    const tenant = await createTenant(suite.app);
    const created = (
      await as(tenant)
        .post('/employees', { ...newEmployee('changes'), hiredAt: '2024-03-01T08:00:00Z', title: 'Engineer' })
        .expect(201)
    ).body.data;
    const patched = (
      await as(tenant)
        .patch(`/employees/${created.id}`, {
          firstName: 'Ada',
          title: null,
          departmentId: 'D-7',
          hiredAt: '2024-04-01T09:30:00.000+02:00',
          leftAt: '2026-01-31T17:00:00Z',
        })
        .expect(200)
    ).body.data;

    const [, updated, deactivated] = await feed(tenant, 3);

    expect(updated.event).toBe('employee.updated');
    expect(updated.data).toEqual(patched);
    expect(updated.changes).toEqual({
      title: { previous: 'Engineer', current: null },
      departmentId: { previous: null, current: 'D-7' },
      hiredAt: { previous: '2024-03-01T08:00:00.000Z', current: '2024-04-01T07:30:00.000Z' },
      leftAt: { previous: null, current: '2026-01-31T17:00:00.000Z' },
    });
    expect(Object.keys(updated)).toEqual(['id', 'event', 'timestamp', 'data', 'changes', 'actor', 'requestId']);
    // Only the *.updated events carry changes.
    expect(deactivated.event).toBe('employee.deactivated');
    expect(Object.keys(deactivated)).toEqual(['id', 'event', 'timestamp', 'data', 'actor', 'requestId']);
  });

  it('names the key and the X-Request-Id of the request on the event of every write route, a keyed POST too', async () => {
    const tenant = await createTenant(suite.app);
    const employee = (
      await as(tenant).post('/employees', newEmployee('actor')).set('X-Request-Id', 'w-employee-create').expect(201)
    ).body.data;
    const skill = (
      await as(tenant)
        .post('/skills', { name: 'Kotlin' })
        .set('Idempotency-Key', 'actor-skill')
        .set('X-Request-Id', 'w-skill-create')
        .expect(201)
    ).body.data;
    const rating = { score: 4, ratingType: 'SELF_ASSESMENT' };
    await as(tenant)
      .put(`/employees/${employee.id}/skills/${skill.id}`, rating)
      .set('X-Request-Id', 'w-skill-rate')
      .expect(200);
    await as(tenant)
      .post(`/employees/${employee.id}/ratings`, { ...rating, skillId: skill.id })
      .set('X-Request-Id', 'w-rating-create')
      .expect(201);
    await as(tenant).patch(`/employees/${employee.id}`, { title: 'CTO' }).set('X-Request-Id', 'w-update').expect(200);
    await as(tenant).del(`/employees/${employee.id}`).set('X-Request-Id', 'w-deactivate').expect(200);

    const events = await feed(tenant, 6);

    expect(events.map((event) => [event.event, event.actor, event.requestId])).toEqual([
      ['employee.created', byApiKey(tenant), 'w-employee-create'],
      ['skill.created', byApiKey(tenant), 'w-skill-create'],
      ['skill.rated', byApiKey(tenant), 'w-skill-rate'],
      ['skill.rated', byApiKey(tenant), 'w-rating-create'],
      ['employee.updated', byApiKey(tenant), 'w-update'],
      ['employee.deactivated', byApiKey(tenant), 'w-deactivate'],
    ]);
  });

  it('records from the bulk endpoints what single items record: changes and the actor of the request', async () => {
    const tenant = await createTenant(suite.app);
    const employee = (await as(tenant).post('/employees', newEmployee('bulk')).expect(201)).body.data;
    const skill = (await as(tenant).post('/skills', { name: 'Scala' }).expect(201)).body.data;
    await as(tenant)
      .post('/employees/bulk', { items: [{ personnelNumber: employee.personnelNumber, title: 'Architect' }] })
      .set('X-Request-Id', 'bulk-employees')
      .expect(200);
    const skills = (
      await as(tenant)
        .post('/skills/bulk', { items: [{ name: 'Scala', description: 'JVM' }, { name: 'Elixir' }] })
        .set('X-Request-Id', 'bulk-skills')
        .expect(200)
    ).body.data;

    const events = (await feed(tenant, 5)).slice(2);

    expect(events.map(({ id: _id, timestamp: _timestamp, data: _data, ...event }) => event)).toEqual([
      {
        event: 'employee.updated',
        changes: { title: { previous: null, current: 'Architect' } },
        actor: byApiKey(tenant),
        requestId: 'bulk-employees',
      },
      {
        event: 'skill.updated',
        changes: { description: { previous: null, current: 'JVM' } },
        actor: byApiKey(tenant),
        requestId: 'bulk-skills',
      },
      { event: 'skill.created', actor: byApiKey(tenant), requestId: 'bulk-skills' },
    ]);
    expect(events[1].data).toMatchObject({ id: skill.id, description: 'JVM' });
    expect(events[2].data).toMatchObject({ id: skills[1].id, name: 'Elixir' });
  });

  it("sends a receiver the feed item's stored bytes without its id, with the request's trace as traceparent", async () => {
    const tenant = await createTenant(suite.app);
    const employee = (await as(tenant).post('/employees', newEmployee('trace')).expect(201)).body.data;
    await as(tenant)
      .post('/webhooks', { url: receiver.url('/changes-trace'), events: ['employee.updated'], secret: 's3cret!' })
      .expect(201);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await as(tenant)
      .patch(`/employees/${employee.id}`, { lastName: 'Byron', isHRTeamMember: true })
      .set('traceparent', `00-${traceId}-00f067aa0ba902b7-01`)
      .set('X-Request-Id', 'traced-1')
      .expect(200);

    const [delivery] = await receiver.waitFor('/changes-trace', 1);
    const item = (await feed(tenant, 2))[1];

    const { id, ...body } = item;
    expect(delivery.body.toString('utf8')).toBe(JSON.stringify(body));
    expect(delivery.headers['webhook-id']).toBe(id);
    expect(body.changes).toEqual({
      lastName: { previous: 'Lovelace', current: 'Byron' },
      isHRTeamMember: { previous: false, current: true },
    });
    expect(body.requestId).toBe('traced-1');
    expect(delivery.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(delivery.headers.traceparent).not.toContain('00f067aa0ba902b7');
  });
});
