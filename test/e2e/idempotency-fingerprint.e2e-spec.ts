import { createHash, createHmac } from 'node:crypto';
import { deriveKey } from '../../src/encryption/service-keys';
import { canonicalJson } from '../../src/idempotency/request-fingerprint';
import { checkedRequest } from '../support/api-client';
import { dataSourceOf, TEST_SERVICE_SECRET_KEY } from '../support/app';
import { useTestApp } from '../support/use-test-app';

/** The guesses someone holding a database dump would try for the endpoint's secret. */
const CANDIDATES = ['password', 'hunter2', 'correct horse battery staple', 'letmein', 'secret', 'webhook'];
const SECRET = 'correct horse battery staple';

describe('Idempotency-Key fingerprints in a database dump', () => {
  const suite = useTestApp({ tenant: 'once' });

  it('keep the fingerprint of a POST /webhooks body untestable without the server key', async () => {
    const body = { url: 'https://hooks.example.com/fingerprint', events: ['skill.rated'], secret: SECRET };
    const post = () =>
      checkedRequest(suite.app)
        .post('/api/v1/webhooks')
        .set('Authorization', suite.tenant.bearer)
        .set('Idempotency-Key', 'fingerprint-1')
        .send(body);
    await post().expect(201);
    await post().expect(201).expect('Idempotency-Replayed', 'true');

    const [{ fingerprint }] = await dataSourceOf(suite.app).query(
      'SELECT fingerprint FROM idempotency_keys WHERE organisation_id = $1 AND key = $2',
      [suite.tenant.organisationId, 'fingerprint-1'],
    );
    const texts = CANDIDATES.map((secret) => `POST /api/v1/webhooks\n${canonicalJson({ ...body, secret })}`);
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('hex');
    const secretKey = Buffer.from(TEST_SERVICE_SECRET_KEY, 'hex');

    // What a dump offers: neither a plain hash nor an HMAC keyed with the encryption key itself matches a guess.
    expect(texts.filter((text) => sha256(text) === fingerprint)).toEqual([]);
    expect(texts.filter((text) => hmac(secretKey, text) === fingerprint)).toEqual([]);
    // Only the key derived on the server matches, and only the right guess.
    const matching = texts.filter((text) => hmac(deriveKey(secretKey, 'request-fingerprints'), text) === fingerprint);
    expect(matching).toEqual([texts[CANDIDATES.indexOf(SECRET)]]);
  });

  it('still tells a different body apart: 422', async () => {
    const body = { url: 'https://hooks.example.com/fingerprint-2', events: ['skill.rated'], secret: 's1' };
    const post = (sent: object) =>
      checkedRequest(suite.app)
        .post('/api/v1/webhooks')
        .set('Authorization', suite.tenant.bearer)
        .set('Idempotency-Key', 'fingerprint-2')
        .send(sent);
    await post(body).expect(201);
    const reused = await post({ ...body, secret: 's2' }).expect(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});
