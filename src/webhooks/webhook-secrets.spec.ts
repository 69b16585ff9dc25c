import { randomBytes } from 'node:crypto';
import * as secretBox from '../encryption/secret-box';
import { ServiceKeys } from '../encryption/service-keys';
import { WebhookSecrets } from './webhook-secrets';

describe('WebhookSecrets', () => {
  const endpointId = '0199a000-0000-7000-8000-000000000001';
  const secrets = new WebhookSecrets(new ServiceKeys({ serviceSecretKey: randomBytes(32) }));
  const open = jest.spyOn(secretBox, 'openSecret');
  afterAll(() => open.mockRestore());

  it('opens an endpoint secret once and answers it from memory afterwards', () => {
    const sealed = secrets.seal('first-secret', endpointId);
    open.mockClear();
    expect(secrets.signingKey(sealed, endpointId)).toBe('first-secret');
    expect(secrets.signingKey(Buffer.from(sealed), endpointId)).toBe('first-secret');
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('opens again when the sealed bytes of the endpoint differ, and refuses bytes sealed for another endpoint', () => {
    secrets.signingKey(secrets.seal('first-secret', endpointId), endpointId);
    expect(secrets.signingKey(secrets.seal('second-secret', endpointId), endpointId)).toBe('second-secret');
    const foreign = secrets.seal('foreign', '0199a000-0000-7000-8000-000000000002');
    expect(() => secrets.signingKey(foreign, endpointId)).toThrow();
  });

  it('signs with an empty key when the endpoint has no secret', () => {
    expect(secrets.signingKey(null, endpointId)).toBe('');
  });
});

describe('WebhookSecrets.signingKeys', () => {
  const endpointId = '0199a000-0000-7000-8000-000000000003';
  const secrets = new WebhookSecrets(new ServiceKeys({ serviceSecretKey: randomBytes(32) }));
  const now = new Date('2026-02-01T10:00:00.000Z');
  const current = secrets.seal('current', endpointId);
  const previous = secrets.seal('previous', endpointId);

  it('is the current secret alone without a previous one', () => {
    const keys = secrets.signingKeys(
      endpointId,
      { secretSealed: current, previousSecretSealed: null, previousSecretExpiresAt: null },
      now,
    );
    expect(keys).toEqual(['current']);
  });

  it('adds the previous secret, after the current one, until its overlap ends and never after', () => {
    const during = { secretSealed: current, previousSecretSealed: previous, previousSecretExpiresAt: now };
    expect(secrets.signingKeys(endpointId, during, new Date(now.getTime() - 1))).toEqual(['current', 'previous']);
    expect(secrets.signingKeys(endpointId, during, now)).toEqual(['current']);
  });

  it('signs with "" for a side that had no secret', () => {
    const fromNone = { secretSealed: current, previousSecretSealed: null, previousSecretExpiresAt: now };
    expect(secrets.signingKeys(endpointId, fromNone, new Date(0))).toEqual(['current', '']);
  });
});
