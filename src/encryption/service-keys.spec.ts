import { createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { sealSecret } from './secret-box';
import { deriveKey, deriveKeyWithId, KeyPurpose, ServiceKeys } from './service-keys';

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

  it('opens what it sealed, and refuses another context', () => {
    const sealed = unrotated.seal('whsec', CONTEXT);
    expect(unrotated.open('webhook-secrets', sealed, CONTEXT)).toBe('whsec');
    expect(() => unrotated.open('webhook-secrets', sealed, 'another row')).toThrow();
    expect(sealed.includes(Buffer.from('whsec'))).toBe(false);
  });

  it('opens what the previous secret sealed until the grace ends, and never after', () => {
    const sealed = unrotated.seal('whsec', CONTEXT);
    expect(rotating.open('webhook-secrets', sealed, CONTEXT, DURING)).toBe('whsec');
    expect(() => rotating.open('webhook-secrets', sealed, CONTEXT, GRACE_END)).toThrow();
    expect(rotating.sealedWithCurrent(sealed, CONTEXT)).toBe(false);
    expect(rotating.sealedWithCurrent(rotating.seal('x', CONTEXT), CONTEXT)).toBe(true);
  });

  it("opens the derived key's format (release 6 writes it) under an accepted secret and its purpose only", () => {
    const { key, id } = deriveKeyWithId(OLD, 'webhook-secrets');
    const derived = sealSecret(key, 'whsec', CONTEXT, id);
    expect(unrotated.open('webhook-secrets', derived, CONTEXT)).toBe('whsec');
    expect(() => unrotated.open('console-seals', derived, CONTEXT)).toThrow();
    expect(rotating.open('webhook-secrets', derived, CONTEXT, DURING)).toBe('whsec');
    expect(() => rotating.open('webhook-secrets', derived, CONTEXT, GRACE_END)).toThrow();
    expect(unrotated.sealedWithCurrent(derived, CONTEXT)).toBe(false);
  });

  it('seals again what is not sealed as it seals now, and nothing else', () => {
    const current = rotating.seal('whsec', CONTEXT);
    expect(rotating.sealedAgain('webhook-secrets', current, CONTEXT, DURING)).toBeNull();
    const { key, id } = deriveKeyWithId(NEW, 'webhook-secrets');
    for (const other of [unrotated.seal('whsec', CONTEXT), sealSecret(key, 'whsec', CONTEXT, id)]) {
      const again = rotating.sealedAgain('webhook-secrets', other, CONTEXT, DURING)!;
      expect(rotating.sealedWithCurrent(again, CONTEXT)).toBe(true);
      expect(rotating.open('webhook-secrets', again, CONTEXT, GRACE_END)).toBe('whsec');
    }
    expect(() => rotating.sealedAgain('webhook-secrets', current, 'another row', DURING)).toThrow();
  });

  it('refuses to sign without a secret: a wiring error', () => {
    expect(() => new ServiceKeys({}).current('list-cursors')).toThrow('SERVICE_SECRET_KEY is not configured');
  });
});

/**
 * Release 4.0.0's openSecret, copied verbatim from its src/encryption/secret-box.ts (commit
 * 1a90e52fd1a3fd82cd3a51dbe2a2b33f472c7e0b, .ci/previous-release): how the previous release opens a webhook
 * endpoint's secret and, through its ConsoleSealer, a single sign-on client secret, with WEBHOOK_SECRET_KEY itself.
 */
function release4OpenSecret(key: Buffer, sealed: Buffer, context: string): string {
  const VERSION = 1;
  const IV_BYTES = 12;
  const TAG_BYTES = 16;
  if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) {
    throw new Error('Sealed secret has an unknown format');
  }
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

describe('what ServiceKeys seals, opened the way the previous release (4.0.0) opens it', () => {
  it('opens with the service secret, so a rollback and a rolling update keep every sealed secret', () => {
    expect(release4OpenSecret(OLD, unrotated.seal('whsec', CONTEXT), CONTEXT)).toBe('whsec');
  });

  it('opens, after a rotation, with the new secret set as WEBHOOK_SECRET_KEY: the one key 4.0.0 knows', () => {
    const { key, id } = deriveKeyWithId(OLD, 'console-seals');
    for (const before of [unrotated.seal('client-secret', CONTEXT), sealSecret(key, 'client-secret', CONTEXT, id)]) {
      const again = rotating.sealedAgain('console-seals', before, CONTEXT, DURING)!;
      expect(release4OpenSecret(NEW, again, CONTEXT)).toBe('client-secret');
      expect(() => release4OpenSecret(OLD, again, CONTEXT)).toThrow();
    }
  });
});
