import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { TestTenant } from './app';

/**
 * Calls /api/v1 as a tenant. Takes getters because suites assign the app and the tenant in their hooks:
 * `const { get, post } = apiClient(() => app, () => tenant);`
 */
export function apiClient(app: () => INestApplication, tenant: () => TestTenant) {
  const call = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string) =>
    request(app().getHttpServer())[method](`/api/v1${path}`).set('Authorization', tenant().bearer);
  return {
    get: (path: string) => call('get', path),
    post: (path: string, body: object) => call('post', path).send(body),
    put: (path: string, body: object) => call('put', path).send(body),
    patch: (path: string, body: object) => call('patch', path).send(body),
    del: (path: string) => call('delete', path),
  };
}
