import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signatureOf, standardSignature } from './signature';

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

describe('standardSignature', () => {
  const id = '0199a000-0000-7000-8000-0000000000aa';
  const body = Buffer.from('{"event":"skill.rated","timestamp":"2026-01-31T09:00:00.000Z","data":{"comment":"ünï ✓"}}');
  const byHand = (secret: string, at: Date) =>
    `v1,${createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(`${id}.${Math.floor(at.getTime() / 1000)}.`)
      .update(body)
      .digest('base64')}`;

  it.each([
    ['an ASCII secret', 's3cret'],
    ['a non-ASCII secret (keyed with its UTF-8 bytes)', 'sécret-ü-✓'],
    ['a secret longer than the HMAC block', 'x'.repeat(256)],
    ['no secret (the empty key)', ''],
  ])('is the base64 HMAC-SHA256 of "id.timestamp.body" for %s', (_case, secret) => {
    const at = new Date('2026-01-31T09:00:00.999Z');
    expect(standardSignature(id, at, body, [secret])).toBe(byHand(secret, at));
  });

  it('lists one signature per secret, space-separated, in the order given', () => {
    const at = new Date();
    expect(standardSignature(id, at, body, ['new', 'old'])).toBe(`${byHand('new', at)} ${byHand('old', at)}`);
  });

  it('verifies with the standardwebhooks library given the base64 of the secret, either of two', () => {
    const at = new Date();
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': standardSignature(id, at, body, ['new-secret', 'old-secret']),
    };
    const base64 = (secret: string | Buffer) => Buffer.from(secret).toString('base64');
    expect(new Webhook(base64('new-secret')).verify(body, headers)).toEqual(JSON.parse(body.toString()));
    expect(new Webhook(base64('old-secret')).verify(body, headers)).toEqual(JSON.parse(body.toString()));
    expect(() => new Webhook(base64('other-secret')).verify(body, headers)).toThrow('No matching signature found');
    const unsigned = { ...headers, 'webhook-signature': standardSignature(id, at, body, ['']) };
    expect(new Webhook(base64(Buffer.alloc(64))).verify(body, unsigned)).toEqual(JSON.parse(body.toString()));
  });
});
