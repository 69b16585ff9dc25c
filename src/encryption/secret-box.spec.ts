import { randomBytes } from 'node:crypto';
import { openSecret, sealSecret } from './secret-box';

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const endpointId = '0199a000-0000-7000-8000-000000000001';

  it('opens what it sealed', () => {
    const sealed = sealSecret(key, 'wh-secret-ü', endpointId);
    expect(openSecret(key, sealed, endpointId)).toBe('wh-secret-ü');
  });

  it('never stores the secret in clear and seals the same secret differently each time', () => {
    const first = sealSecret(key, 'plain-secret', endpointId);
    const second = sealSecret(key, 'plain-secret', endpointId);
    expect(first.includes(Buffer.from('plain-secret'))).toBe(false);
    expect(first.equals(second)).toBe(false);
  });

  it.each([0, 5, 20, 40])('detects a flipped byte at offset %i', (offset) => {
    const sealed = sealSecret(key, 'plain-secret', endpointId);
    sealed[offset] ^= 0x01;
    expect(() => openSecret(key, sealed, endpointId)).toThrow();
  });

  it('refuses another key', () => {
    const sealed = sealSecret(key, 'plain-secret', endpointId);
    expect(() => openSecret(randomBytes(32), sealed, endpointId)).toThrow();
  });

  it('refuses a sealed secret moved to another endpoint', () => {
    const sealed = sealSecret(key, 'plain-secret', endpointId);
    expect(() => openSecret(key, sealed, '0199a000-0000-7000-8000-000000000002')).toThrow();
  });

  it('refuses a truncated value', () => {
    expect(() => openSecret(key, sealSecret(key, 's', endpointId).subarray(0, 20), endpointId)).toThrow();
  });
});
