import { INestApplication } from '@nestjs/common';
import request, { Response, Test } from 'supertest';
import { FieldError } from '../../src/errors/errors';
import { ListMeta } from '../../src/pagination/pagination';
import { TestTenant } from './app';
import { conformsToDocument, Method } from './openapi-document';

/**
 * A response body as a test reads it: the envelope, `data` typed as the route answers it. `meta` is
 * there on lists and `error` on failures; both are typed as present so a test reads them directly.
 */
export interface Envelope<T> {
  success: boolean;
  data: T;
  /** Page mode's fields, or cursor mode's (a subset): a test reads the ones its request's mode gives. */
  meta: Required<ListMeta>;
  error: { code: string; message: string; details: FieldError[] };
}

/** What a typed call resolves to: the supertest response, its body the envelope of `T`. */
export interface TypedResponse<T> extends Omit<Response, 'body'> {
  body: Envelope<T>;
}

/** A supertest call whose result is typed; `expect` keeps the type, every other method is supertest's. */
export interface TypedTest<T> extends Omit<Test, 'expect' | 'then'>, PromiseLike<TypedResponse<T>> {
  expect(status: number, body?: unknown): TypedTest<T>;
  expect(checker: (response: Response) => unknown): TypedTest<T>;
  expect(field: string, value: string | RegExp): TypedTest<T>;
}

/** Without a type argument a call is plain supertest; with one, `(await get<T>(…)).body.data` is a `T`. */
interface Call<Args extends unknown[]> {
  (...args: Args): Test;
  <T>(...args: Args): TypedTest<T>;
}

export interface ApiClientOptions {
  /** Put before every path; '' reaches routes outside the API, such as /health. */
  prefix?: string;
}

/**
 * Calls the API as a tenant, or with no key when `tenant` is left out. Takes getters because suites
 * assign the app and the tenant in their hooks: `const { get, post } = apiClient(() => app, () => tenant);`
 * Each method answers the supertest call, typed when given the type of `data`:
 * `const skills = (await get<SkillResponse[]>('/skills').expect(200)).body.data;`
 * Every response, error or not, must conform to the served OpenAPI document, or the call fails.
 */
export function apiClient(
  app: () => INestApplication,
  tenant?: () => TestTenant,
  { prefix = '/api/v1' }: ApiClientOptions = {},
) {
  /** The bare call, for what the shortcuts do not cover (a raw body, headers set before it). */
  const call = (method: Method, path: string): Test => {
    const url = `${prefix}${path}`;
    const test = request(app().getHttpServer())
      [method](url)
      .expect(conformsToDocument(app(), method, url));
    return tenant ? test.set('Authorization', tenant().bearer) : test;
  };
  const withPath = (method: Method) => ((path: string) => call(method, path)) as Call<[path: string]>;
  const withBody = (method: Method) =>
    ((path: string, body: object) => call(method, path).send(body)) as Call<[path: string, body: object]>;
  return {
    call,
    get: withPath('get'),
    post: withBody('post'),
    put: withBody('put'),
    patch: withBody('patch'),
    del: withPath('delete'),
  };
}

/**
 * `request(app.getHttpServer())` for suites that send what the typed client does not (odd bodies, headers,
 * paths), with the same check of every response against the OpenAPI document.
 */
export function checkedRequest(app: INestApplication): Record<Method, (url: string) => Test> {
  const server = request(app.getHttpServer());
  const checked = (method: Method) => (url: string) => server[method](url).expect(conformsToDocument(app, method, url));
  return {
    get: checked('get'),
    post: checked('post'),
    put: checked('put'),
    patch: checked('patch'),
    delete: checked('delete'),
  };
}
