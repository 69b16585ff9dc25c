import { Logger } from '@nestjs/common';
import request from 'supertest';
import { useTestApp } from '../support/use-test-app';

/**
 * Every console answer goes out through ConsolePageInterceptor (src/console/http/page.interceptor.ts); Nest's own
 * reply, which follows it, must find the response complete and change nothing, whatever the request asks.
 */
describe('console answers', () => {
  const context = useTestApp();
  const server = () => context.app.getHttpServer();

  it.each([
    ['a page', '/console/sign-in', 200],
    ['a redirect', '/console', 303],
    ['the 404 page', '/console/no-such-page', 404],
  ])('sends %s once, even to a conditional request, and logs no error', async (_what, path, status) => {
    const errors = jest.spyOn(Logger.prototype, 'error');
    for (const headers of [{}, { 'If-None-Match': '*' }, { 'If-Modified-Since': new Date().toUTCString() }]) {
      const response = await request(server()).get(path).set(headers).expect(status);
      expect(response.headers['cache-control']).toBe('no-store');
      if (status !== 303) expect(response.text).toContain('</html>');
    }
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('sends an asset with its own type and caching', async () => {
    const page = await request(server()).get('/console/sign-in').expect(200);
    const stylesheet = /href="(\/console\/assets\/[^"]+\.css)"/.exec(page.text)![1];
    const response = await request(server()).get(stylesheet).set('If-None-Match', '*').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/css/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
