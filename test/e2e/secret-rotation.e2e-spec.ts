import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { AppConfig } from '../../src/config/config';
import { ConsoleSealer } from '../../src/console/http/sealer';
import { PeopleService } from '../../src/console/people/people.service';
import { sealingContext, SsoRepository } from '../../src/console/sso/sso.repository';
import { openSecret } from '../../src/encryption/secret-box';
import { ServiceKeys } from '../../src/encryption/service-keys';
import { WebhookSecrets } from '../../src/webhooks/webhook-secrets';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf, TEST_SERVICE_SECRET_KEY, TestTenant } from '../support/app';
import { TEST_PASSWORD, welcomePath } from '../support/console';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { waitUntil } from '../support/wait-until';
import { verifyStandardSignature, WebhookReceiver } from '../support/webhook-receiver';

// Each test starts instances of its own and waits on deliveries: on the embedded database, beside the other
// worker, more than Jest's 30 s.
jest.setTimeout(90_000);

const OLD_SECRET = Buffer.from(TEST_SERVICE_SECRET_KEY, 'hex');
const NEW_SECRET = Buffer.alloc(32, 0xfe);
const ENDPOINT_SECRET = 'rotation-endpoint-secret';
const CLIENT_SECRET = 'rotation-sso-client-secret';

/** An instance after the operator's change: the new secret, the previous one accepted until `graceUntil`. */
const rotatedTo = (graceUntil: Date): Partial<AppConfig> => ({
  serviceSecretKey: NEW_SECRET,
  serviceSecretKeyPrevious: OLD_SECRET,
  serviceSecretGraceUntil: graceUntil,
  webhookPollIntervalMs: 100,
});

const cookieOf = (response: request.Response, name: string) =>
  ([] as string[])
    .concat(response.headers['set-cookie'] ?? [])
    .find((cookie) => cookie.startsWith(`${name}=`))
    ?.split(';')[0];

/**
 * A rotation of the service secret as docs/operations.md describes it ("Rotating the service secret"): what the
 * old secret signed and sealed keeps working on instances that have the new one while the grace lasts, webhook
 * and single sign-on secrets are re-sealed to the new key in the background, and after the grace only the new
 * key opens anything.
 */
describe('rotating the service secret', () => {
  const certificate = testCertificate();
  const trust = TrustCertificateModule.of(certificate);
  const receiver = new WebhookReceiver(certificate);
  const apps: NestExpressApplication[] = [];
  let tenant: TestTenant;

  /** An instance of the file's database with `config`, dispatching (and re-sealing) when `dispatch`. */
  async function instance(config: Partial<AppConfig>, dispatch: boolean): Promise<NestExpressApplication> {
    const app = await createTestApp(config, [trust], { dispatch });
    apps.push(app);
    return app;
  }

  const api = (app: NestExpressApplication) =>
    apiClient(
      () => app,
      () => tenant,
    );
  const sealedOf = async (app: NestExpressApplication, endpointId: string): Promise<Buffer> =>
    (await dataSourceOf(app).query(`SELECT secret_sealed FROM webhook_endpoints WHERE id = $1`, [endpointId]))[0]
      .secret_sealed;
  const ssoSealedOf = async (app: NestExpressApplication): Promise<Buffer> =>
    (
      await dataSourceOf(app).query(`SELECT client_secret_sealed FROM console_sso WHERE organisation_id = $1`, [
        tenant.organisationId,
      ])
    )[0].client_secret_sealed;
  const keepKeyed = (app: NestExpressApplication, key: string, name: string) =>
    api(app).post('/skills', { name }).set('Idempotency-Key', key);
  const signedIn = (app: NestExpressApplication, session: string) =>
    request(app.getHttpServer()).get('/console/people').set('Cookie', session);
  const employee = (app: NestExpressApplication, number: string) =>
    api(app)
      .post('/employees', {
        personnelNumber: number,
        firstName: 'Rita',
        lastName: 'Rotation',
        businessEmail: `${number}@example.com`,
      })
      .expect(201);

  /** What the old secret signed and sealed before the rotation. */
  const issued = {} as {
    endpointId: string;
    sealedBefore: Buffer;
    cursor: string;
    keptBody: unknown;
    welcomeCookie: string;
    session: string;
    newCursor: string;
  };

  beforeAll(() => receiver.start());
  afterAll(async () => {
    for (const app of apps) await app.close();
    await receiver.stop();
  });

  it('before: the old secret signs cursors, keeps fingerprints and seals secrets', async () => {
    const before = await instance({}, false);
    tenant = await createTenant(before);
    const endpoint = await api(before)
      .post('/webhooks', { url: receiver.url('/rotation'), events: ['employee.created'], secret: ENDPOINT_SECRET })
      .expect(201);
    issued.endpointId = endpoint.body.data.id;
    issued.sealedBefore = await sealedOf(before, issued.endpointId);
    await before.get(SsoRepository).upsert(
      tenant.organisationId,
      {
        issuer: 'https://sso.example.com',
        clientId: 'rotation',
        clientSecretSealed: before.get(ConsoleSealer).seal(CLIENT_SECRET, sealingContext(tenant.organisationId)),
      },
      new Date(),
    );

    for (const name of ['Rotation A', 'Rotation B']) await api(before).post('/skills', { name }).expect(201);
    issued.cursor = (await api(before).get('/skills?limit=1').expect(200)).body.meta.nextCursor;
    issued.keptBody = (await keepKeyed(before, 'before-rotation', 'Kept before').expect(201)).body;

    // An invited admin opens the welcome link: its token waits in a cookie sealed with the console's key.
    const { link } = await before
      .get(PeopleService)
      .invite(tenant.organisationId, { email: `rotation-${Date.now()}@example.com`, role: 'admin' }, { type: 'cli' });
    const opened = await request(before.getHttpServer()).get(welcomePath(link)).expect(303);
    issued.welcomeCookie = cookieOf(opened, 'console_welcome')!;
    expect(issued.welcomeCookie).toBeDefined();
  });

  it('during the grace: the new secret signs and seals, and everything of the old one still works', async () => {
    const during = await instance(rotatedTo(new Date(Date.now() + 3_600_000)), true);

    // The welcome cookie sealed under the old secret still opens: the password is chosen, a session starts.
    const chosen = await request(during.getHttpServer())
      .post('/console/welcome')
      .set('Cookie', issued.welcomeCookie)
      .type('form')
      .send({ password: TEST_PASSWORD })
      .expect(303);
    issued.session = cookieOf(chosen, 'console_session')!;
    await signedIn(during, issued.session).expect(200);

    await api(during)
      .get(`/skills?limit=1&cursor=${encodeURIComponent(issued.cursor)}`)
      .expect(200);
    issued.newCursor = (await api(during).get('/skills?limit=1').expect(200)).body.meta.nextCursor;
    expect(issued.newCursor).not.toBe(issued.cursor);
    const replayed = await keepKeyed(during, 'before-rotation', 'Kept before').expect(201);
    expect(replayed.headers['idempotency-replayed']).toBe('true');
    expect(replayed.body).toEqual(issued.keptBody);
    await keepKeyed(during, 'during-rotation', 'Kept during').expect(201);

    // The endpoint's secret, sealed under the old secret, signs the deliveries.
    await employee(during, `rot-during-${Date.now()}`);
    const [delivery] = await receiver.waitFor('/rotation', 1);
    expect(verifyStandardSignature(delivery, ENDPOINT_SECRET)).toEqual({ library: true, byHand: true });

    // The dispatching instance re-seals it, and the SSO client secret, under the new secret in the background, in
    // the format the previous release opens with the one secret it knows (docs/operations.md).
    const keys = during.get(ServiceKeys);
    const ssoContext = sealingContext(tenant.organisationId);
    await waitUntil(
      async () =>
        keys.sealedWithCurrent(await sealedOf(during, issued.endpointId), issued.endpointId) &&
        keys.sealedWithCurrent(await ssoSealedOf(during), ssoContext),
      'the secrets are re-sealed under the new secret',
    );
    const resealed = await sealedOf(during, issued.endpointId);
    expect(openSecret(NEW_SECRET, resealed, issued.endpointId)).toBe(ENDPOINT_SECRET);
    expect(() => openSecret(OLD_SECRET, resealed, issued.endpointId)).toThrow();
    expect(openSecret(NEW_SECRET, await ssoSealedOf(during), ssoContext)).toBe(CLIENT_SECRET);
    await during.close();
    apps.splice(apps.indexOf(during), 1);
  });

  it('after the grace: only the new secret opens anything', async () => {
    const after = await instance(rotatedTo(new Date(Date.now() - 1000)), true);

    // Signed or sealed under the new secret: as before.
    await signedIn(after, issued.session).expect(200);
    await api(after)
      .get(`/skills?limit=1&cursor=${encodeURIComponent(issued.newCursor)}`)
      .expect(200);
    const replayed = await keepKeyed(after, 'during-rotation', 'Kept during').expect(201);
    expect(replayed.headers['idempotency-replayed']).toBe('true');
    await employee(after, `rot-after-${Date.now()}`);
    const deliveries = await receiver.waitFor('/rotation', 2);
    expect(verifyStandardSignature(deliveries[1], ENDPOINT_SECRET)).toEqual({ library: true, byHand: true });
    expect(after.get(ConsoleSealer).open(await ssoSealedOf(after), sealingContext(tenant.organisationId))).toBe(
      CLIENT_SECRET,
    );

    // Signed or sealed under the old secret: refused.
    const stale = await api(after)
      .get(`/skills?limit=1&cursor=${encodeURIComponent(issued.cursor)}`)
      .expect(400);
    expect(stale.body.error.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
    await keepKeyed(after, 'before-rotation', 'Kept before').expect(422);
    expect(() => after.get(WebhookSecrets).signingKey(issued.sealedBefore, issued.endpointId)).toThrow();
    const welcome = await request(after.getHttpServer())
      .post('/console/welcome')
      .set('Cookie', issued.welcomeCookie)
      .type('form')
      .send({ password: TEST_PASSWORD });
    expect(cookieOf(welcome, 'console_session')).toBeUndefined();
  });
});
