import { redactUrl, splitTarget } from './url-redaction';

describe('redactUrl', () => {
  const token = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2Fs';

  it("replaces a welcome link's token, in any case and with anything after it", () => {
    expect(redactUrl({ path: `/console/welcome/${token}` })).toEqual({ path: '/console/welcome/[redacted]' });
    expect(redactUrl({ path: `/Console/WELCOME/${token}/` })).toEqual({ path: '/Console/WELCOME/[redacted]' });
    expect(redactUrl({ path: `/console/welcome/${token}`, query: 'a=b' })).toEqual({
      path: '/console/welcome/[redacted]',
      query: 'a=b',
    });
  });

  it('leaves the welcome page without a token as it is', () => {
    expect(redactUrl({ path: '/console/welcome' })).toEqual({ path: '/console/welcome' });
    expect(redactUrl({ path: '/console/welcome/' })).toEqual({ path: '/console/welcome/' });
  });

  it("replaces every value of the single sign-on callback's query, keeping the names", () => {
    expect(
      redactUrl({ path: '/console/sso/callback', query: `code=${token}&state=abc&iss=https%3A%2F%2Fidp` }),
    ).toEqual({
      path: '/console/sso/callback',
      query: 'code=[redacted]&state=[redacted]&iss=[redacted]',
    });
    expect(redactUrl({ path: '/CONSOLE/SSO/CALLBACK/', query: 'error=access_denied&state' })).toEqual({
      path: '/CONSOLE/SSO/CALLBACK/',
      query: 'error=[redacted]&state=[redacted]',
    });
  });

  it('leaves every other URL as it is', () => {
    expect(redactUrl({ path: '/api/v1/employees', query: 'code=1&state=2' })).toEqual({
      path: '/api/v1/employees',
      query: 'code=1&state=2',
    });
    expect(redactUrl({ path: '/console/sso/start' })).toEqual({ path: '/console/sso/start' });
    expect(redactUrl({ path: '/api/v1/console/welcome/x' })).toEqual({ path: '/api/v1/console/welcome/x' });
  });
});

describe('splitTarget', () => {
  it('splits a request target at its first ?', () => {
    expect(splitTarget('/console/sso/callback?code=a?b&state=c')).toEqual({
      path: '/console/sso/callback',
      query: 'code=a?b&state=c',
    });
    expect(splitTarget('/health/live?')).toEqual({ path: '/health/live', query: '' });
    expect(splitTarget('/health/live')).toEqual({ path: '/health/live' });
  });
});
