import { hkdfSync, randomBytes } from 'node:crypto';
import { sealSecret } from './secret-box';
import { deriveKey, KeyPurpose, ServiceKeys } from './service-keys';

const PURPOSES: KeyPurpose[] = ['webhook-secrets', 'console-seals', 'list-cursors', 'request-fingerprints'];
const OLD = randomBytes(32);
const NEW = randomBytes(32);
const GRACE_END = new Date('2026-12-01T00:00:00.000Z');
const DURING = new Date(GRACE_END.getTime() - 1);
const CONTEXT = '0199a000-0000-7000-8000-000000000001';

const unrotated = new ServiceKeys({ serviceSecretKey: OLD });
const rotating = new ServiceKeys({
  serviceSecretKey: NEW,
  serviceSecretKeyPrevious: OLD,
  serviceSecretGraceUntil: GRACE_END,
});

describe('ServiceKeys', () => {
  it('derives a key of its own for each purpose, none of them the secret itself', () => {
    const keys = PURPOSES.map((purpose) => unrotated.current(purpose).toString('hex'));
    expect(new Set([...keys, OLD.toString('hex')]).size).toBe(PURPOSES.length + 1);
  });

  it("keeps release 4's derivations of the cursor and fingerprint keys, so what it signed stays valid", () => {
    expect(deriveKey(OLD, 'list-cursors')).toEqual(
      Buffer.from(hkdfSync('sha256', OLD, 'skills-api', 'list-cursor-v1', 32)),
    );
    expect(deriveKey(OLD, 'request-fingerprints')).toEqual(
      Buffer.from(hkdfSync('sha256', OLD, Buffer.alloc(0), 'skills-service idempotency request fingerprint v1', 32)),
    );
  });

  it('signs with the new secret during the grace and accepts both; after it only the new one', () => {
    expect(rotating.current('list-cursors')).toEqual(deriveKey(NEW, 'list-cursors'));
    expect(rotating.accepted('list-cursors', DURING)).toEqual([
      deriveKey(NEW, 'list-cursors'),
      deriveKey(OLD, 'list-cursors'),
    ]);
    expect(rotating.rotating(DURING)).toBe(true);
    expect(rotating.accepted('list-cursors', GRACE_END)).toEqual([deriveKey(NEW, 'list-cursors')]);
    expect(rotating.rotating(GRACE_END)).toBe(false);
  });

  it('opens what it sealed, and refuses another purpose or context', () => {
    const sealed = unrotated.seal('webhook-secrets', 'whsec', CONTEXT);
    expect(unrotated.open('webhook-secrets', sealed, CONTEXT)).toBe('whsec');
    expect(() => unrotated.open('console-seals', sealed, CONTEXT)).toThrow();
    expect(() => unrotated.open('webhook-secrets', sealed, 'another row')).toThrow();
    expect(sealed.includes(Buffer.from('whsec'))).toBe(false);
  });

  it('opens what the previous secret sealed until the grace ends, and never after', () => {
    const sealed = unrotated.seal('webhook-secrets', 'whsec', CONTEXT);
    expect(rotating.open('webhook-secrets', sealed, CONTEXT, DURING)).toBe('whsec');
    expect(() => rotating.open('webhook-secrets', sealed, CONTEXT, GRACE_END)).toThrow();
    expect(rotating.sealedWithCurrent('webhook-secrets', sealed)).toBe(false);
    expect(rotating.sealedWithCurrent('webhook-secrets', rotating.seal('webhook-secrets', 'x', CONTEXT))).toBe(true);
  });

  it("opens release 4's format (sealed with the secret itself) under an accepted secret only", () => {
    const release4 = sealSecret(OLD, 'whsec', CONTEXT);
    expect(unrotated.open('webhook-secrets', release4, CONTEXT)).toBe('whsec');
    expect(rotating.open('console-seals', release4, CONTEXT, DURING)).toBe('whsec');
    expect(() => rotating.open('webhook-secrets', release4, CONTEXT, GRACE_END)).toThrow();
    expect(rotating.sealedWithCurrent('webhook-secrets', release4)).toBe(false);
  });

  it('names the current key in the first bytes of what it seals', () => {
    const prefix = rotating.currentSealPrefix('webhook-secrets');
    expect(rotating.seal('webhook-secrets', 'x', CONTEXT).subarray(0, prefix.length)).toEqual(prefix);
    expect(unrotated.seal('webhook-secrets', 'x', CONTEXT).subarray(0, prefix.length)).not.toEqual(prefix);
    expect(rotating.currentSealPrefix('console-seals')).not.toEqual(prefix);
  });

  it('refuses to sign without a secret: a wiring error', () => {
    expect(() => new ServiceKeys({}).current('list-cursors')).toThrow('SERVICE_SECRET_KEY is not configured');
  });
});
