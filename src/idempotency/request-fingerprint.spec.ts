import { canonicalJson, requestFingerprint } from './request-fingerprint';

describe('requestFingerprint', () => {
  it('reads key order and spacing as the same JSON value', () => {
    const a = JSON.parse('{"b": 1, "a": {"y": [1, {"q": 2, "p": 1}], "x": null}}') as unknown;
    const b = JSON.parse('{"a":{"x":null,"y":[1,{"p":1,"q":2}]},"b":1.0}') as unknown;
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(requestFingerprint('POST', '/api/v1/skills', a)).toBe(requestFingerprint('POST', '/api/v1/skills', b));
  });

  it('tells apart another body, path or method', () => {
    const fingerprint = requestFingerprint('POST', '/api/v1/skills', { name: 'a' });
    expect(requestFingerprint('POST', '/api/v1/skills', { name: 'b' })).not.toBe(fingerprint);
    expect(requestFingerprint('POST', '/api/v1/employees', { name: 'a' })).not.toBe(fingerprint);
    expect(requestFingerprint('PUT', '/api/v1/skills', { name: 'a' })).not.toBe(fingerprint);
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});
