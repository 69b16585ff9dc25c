import { signatureOf } from './signature';

describe('signatureOf', () => {
  // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
  it('is the HMAC-SHA256 of the body, hex, prefixed with sha256=', () => {
    expect(signatureOf(Buffer.from('what do ya want for nothing?'), 'Jefe')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('signs with the empty key when the endpoint has no secret', () => {
    expect(signatureOf(Buffer.from(''), '')).toBe(
      'sha256=b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad',
    );
  });
});
