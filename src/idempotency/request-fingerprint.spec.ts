import { createHash, createHmac } from 'node:crypto';
import { deriveKey } from '../encryption/service-keys';
import { canonicalJson, requestFingerprint } from './request-fingerprint';

const KEY = deriveKey(Buffer.alloc(32, 7), 'request-fingerprints');

describe('requestFingerprint', () => {
  it('reads key order and spacing as the same JSON value', () => {
    const a = JSON.parse('{"b": 1, "a": {"y": [1, {"q": 2, "p": 1}], "x": null}}') as unknown;
    const b = JSON.parse('{"a":{"x":null,"y":[1,{"p":1,"q":2}]},"b":1.0}') as unknown;
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(requestFingerprint(KEY, 'POST', '/api/v1/skills', a)).toBe(
      requestFingerprint(KEY, 'POST', '/api/v1/skills', b),
    );
  });

  it('tells apart another body, path or method', () => {
    const fingerprint = requestFingerprint(KEY, 'POST', '/api/v1/skills', { name: 'a' });
    expect(requestFingerprint(KEY, 'POST', '/api/v1/skills', { name: 'b' })).not.toBe(fingerprint);
    expect(requestFingerprint(KEY, 'POST', '/api/v1/employees', { name: 'a' })).not.toBe(fingerprint);
    expect(requestFingerprint(KEY, 'PUT', '/api/v1/skills', { name: 'a' })).not.toBe(fingerprint);
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('cannot be recomputed without the server key: neither a plain SHA-256 nor an HMAC with the secret key itself', () => {
    const secretKey = Buffer.alloc(32, 7);
    const text = `POST /api/v1/webhooks\n${canonicalJson({ secret: 'correct horse', url: 'https://x.example' })}`;
    const fingerprint = requestFingerprint(KEY, 'POST', '/api/v1/webhooks', {
      url: 'https://x.example',
      secret: 'correct horse',
    });
    expect(fingerprint).toBe(createHmac('sha256', KEY).update(text).digest('hex'));
    expect(fingerprint).not.toBe(createHash('sha256').update(text).digest('hex'));
    expect(fingerprint).not.toBe(createHmac('sha256', secretKey).update(text).digest('hex'));
    expect(
      requestFingerprint(deriveKey(Buffer.alloc(32, 8), 'request-fingerprints'), 'POST', '/api/v1/webhooks', {}),
    ).not.toBe(requestFingerprint(KEY, 'POST', '/api/v1/webhooks', {}));
  });
});
