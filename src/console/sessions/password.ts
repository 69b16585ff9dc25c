import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../../errors/errors';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * scrypt with OWASP's "N=2^15, r=8, p=3" (32 MiB, three passes; its cheaper rows trade memory for passes at
 * the same cost): Node's own, so no native package needs an install script. Measured here at 150 to 700 ms a
 * hash, on libuv's thread pool, never on the event loop. The parameters are stored with each hash, so they
 * can be raised later without locking anyone out.
 */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** A chosen password's length (in characters, as people count them), else a ValidationError naming `password`. */
export function checkPasswordLength(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw ValidationError.forField(
      'password',
      `A password has ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    );
  }
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, PARAMETERS);
  const { N, r, p } = PARAMETERS;
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Whether `password` is the one `stored` was made from; a stored value of another format never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (!match) return false;
  const [, N, r, p, salt, hash] = match;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of no one's password, so that signing in as an unknown email costs as long as a wrong password and
 * does not tell which emails exist.
 */
let decoy: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(18).toString('base64url'));
  return decoy;
}

function derive(password: string, salt: Buffer, parameters: ScryptOptions): Promise<Buffer> {
  // maxmem above 128 * N * r, which is exactly Node's default limit at these parameters.
  const options = { ...parameters, maxmem: 256 * (parameters.N ?? 0) * (parameters.r ?? 0) };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}
