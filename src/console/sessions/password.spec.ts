import { checkPasswordLength, hashPassword, verifyPassword } from './password';

describe('console passwords', () => {
  it('verifies the password a hash was made from, and no other', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
  });

  it('salts each hash', async () => {
    expect(await hashPassword('the same password')).not.toBe(await hashPassword('the same password'));
  });

  it('never matches a stored value of another format', async () => {
    await expect(verifyPassword('anything at all', 'plain:anything at all')).resolves.toBe(false);
  });

  it.each([
    ['a'.repeat(11), false],
    ['a'.repeat(12), true],
    ['é'.repeat(256), true],
    ['😀'.repeat(12), true],
    ['a'.repeat(257), false],
  ])('takes %#: a password of 12 to 256 characters (%p)', (password, accepted) => {
    if (accepted) expect(() => checkPasswordLength(password)).not.toThrow();
    else expect(() => checkPasswordLength(password)).toThrow(/12 to 256 characters/);
  });
});
