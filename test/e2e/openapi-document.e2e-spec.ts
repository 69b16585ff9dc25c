import type { ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { apiClient } from '../support/api-client';
import {
  documentChecker,
  OpenAPIObject,
  OpenApiResponseChecker,
  operationsOf,
  ResponseToCheck,
  servedDocument,
} from '../support/openapi-document';
import { useTestApp } from '../support/use-test-app';

/** Every schema object of the document, wherever it sits, with where. */
function schemasIn(node: unknown, where = '#'): Array<{ where: string; schema: SchemaObject }> {
  if (typeof node !== 'object' || node === null) return [];
  const here = 'type' in node || 'anyOf' in node ? [{ where, schema: node as SchemaObject }] : [];
  return [
    ...here,
    ...Object.entries(node).flatMap(([key, value]) => schemasIn(value, `${where}/${key.replace(/\//g, '~1')}`)),
  ];
}

const refName = (node: unknown) => (node as ReferenceObject).$ref.split('/').pop();

/** What the document says beyond the shape of each resource: the conventions every operation follows. */
describe('the OpenAPI document describes what the service answers', () => {
  const suite = useTestApp({ tenant: 'once' });
  let document: OpenAPIObject;

  beforeAll(() => {
    document = servedDocument(suite.app);
  });

  const api = suite.api;
  const withoutKey = apiClient(() => suite.app);
  const operations = () => operationsOf(document);
  const resolved = (response: ResponseObject | ReferenceObject): ResponseObject =>
    '$ref' in response ? (document.components!.responses![refName(response)!] as ResponseObject) : response;
  const responsesOf = (path: string, method: 'get' | 'post' | 'put' | 'patch' | 'delete') =>
    document.paths[path][method]!.responses;

  it('is OpenAPI 3.0.3 with its paths relative to the server /api/v1, the health checks on the host', () => {
    expect(document.openapi).toBe('3.0.3');
    expect(document.servers).toEqual([expect.objectContaining({ url: '/api/v1' })]);
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/api/'))).toEqual([]);
    for (const path of ['/health/live', '/health/ready']) {
      expect(document.paths[path].servers).toEqual([expect.objectContaining({ url: '/' })]);
    }
  });

  it('serves the same document as YAML', async () => {
    const response = await withoutKey.get('/openapi.yaml').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/yaml/);
    expect(parse(response.text)).toEqual(document);
  });

  it('describes the routes outside the resources, which need no key', () => {
    for (const [path, method] of [
      ['/health/live', 'get'],
      ['/health/ready', 'get'],
      ['/', 'get'],
      ['/openapi.json', 'get'],
      ['/openapi.yaml', 'get'],
    ] as const) {
      expect(document.paths[path]?.[method]?.security).toEqual([]);
    }
    expect(Object.keys(responsesOf('/health/ready', 'get'))).toEqual(expect.arrayContaining(['200', '503']));
  });

  it('names the key an opaque bearer token, not a JWT', () => {
    expect(document.components!.securitySchemes!.apiKey).toMatchObject({ scheme: 'bearer', bearerFormat: 'opaque' });
    expect(document.security).toEqual([{ apiKey: [] }]);
  });

  it('types every number as an integer but the similarity score of a skill candidate', () => {
    const numbers = schemasIn(document).filter(({ schema }) => schema.type === 'number');
    expect(numbers.map(({ where }) => where)).toEqual(['#/components/schemas/SkillCandidate/properties/score']);
    const { ListMeta, CreateSkillDto, RateSkillDto } = document.components!.schemas! as Record<string, SchemaObject>;
    for (const field of ['total', 'page', 'limit', 'totalPages']) {
      expect(ListMeta.properties![field]).toMatchObject({ type: 'integer' });
    }
    expect(CreateSkillDto.properties!.ratingScaleMin).toMatchObject({ type: 'integer' });
    expect(RateSkillDto.properties!.score).toMatchObject({ type: 'integer' });
    const page = (document.paths['/employees'].get!.parameters as ParameterObject[]).find(
      ({ name }) => name === 'page',
    );
    expect(page?.schema).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('gives request bodies no `default` (generators would make the field required) and says it in words', () => {
    const bodies = operations().flatMap(({ operation }) =>
      operation.requestBody
        ? [
            refName(
              (operation.requestBody as { content: Record<string, { schema: unknown }> }).content['application/json']
                .schema,
            ),
          ]
        : [],
    );
    expect(bodies.length).toBeGreaterThan(5);
    const schemas = document.components!.schemas! as Record<string, SchemaObject>;
    for (const name of bodies) {
      expect(schemasIn(schemas[name!]).filter(({ schema }) => 'default' in schema)).toEqual([]);
    }
    expect(schemas.CreateEmployeeDto.properties!.isHRTeamMember).toMatchObject({ description: 'Default: `false`.' });
    expect(schemas.CreateSkillDto.properties!.ratingScaleType).toMatchObject({ description: 'Default: `"NUMERIC"`.' });
  });

  it('lets a nullable reference be null, as ajv reads OpenAPI 3.0', () => {
    const ajv = new Ajv({ strict: true });
    addFormats(ajv);
    ajv.addKeyword('example');
    const schemas = JSON.parse(
      JSON.stringify(document.components!.schemas).replace(/#\/components\/schemas\//g, 'components#/definitions/'),
    );
    ajv.addSchema({ $id: 'components', definitions: schemas });
    const replacesPerson = ajv.compile(schemas.Position.properties.replacesPerson);
    expect(replacesPerson(null)).toBe(true);
    expect(replacesPerson({ id: 'x', firstName: 'A', lastName: 'B' })).toBe(true);
    expect(replacesPerson({ id: 'x' })).toBe(false);
    for (const [schema, field] of [
      ['Position', 'replacesPerson'],
      ['PositionDetail', 'replacesPerson'],
      ['PersonSkill', 'latestRating'],
      ['EmployeeSkill', 'latestRating'],
    ]) {
      expect(ajv.compile(schemas[schema].properties[field])(null)).toBe(true);
    }
  });

  it('lists on every operation the errors every route can answer, each with the error envelope', () => {
    for (const { method, path, operation } of operations()) {
      const statuses = Object.keys(operation.responses).map(Number);
      const secured = operation.security?.length !== 0;
      const pathIds = ((operation.parameters ?? []) as ParameterObject[]).filter(({ in: where }) => where === 'path');
      const expected = [400, 431, 500];
      if (!path.startsWith('/health/')) expected.push(429);
      if (secured) expected.push(401, 503);
      if (pathIds.length) expected.push(404);
      if (['post', 'put', 'patch'].includes(method)) expected.push(413, 415);
      if (method === 'post' && secured) expected.push(409, 422);
      expect({ [`${method} ${path}`]: statuses }).toEqual({ [`${method} ${path}`]: expect.arrayContaining(expected) });
      for (const id of pathIds) expect(id.schema).toEqual({ type: 'string', format: 'uuid' });
    }
    expect(responsesOf('/employees', 'post')[422]).toEqual({ $ref: '#/components/responses/IdempotencyKeyReused' });
    const errors = document.components!.responses! as Record<string, ResponseObject>;
    for (const response of Object.values(errors)) {
      expect(refName(response.content!['application/json'].schema)).toBe('ErrorEnvelope');
    }
    expect((document.components!.schemas!.ErrorCode as SchemaObject).enum).toContain('IDEMPOTENCY_KEY_REUSED');
  });

  it('documents the headers: the request id and rate limit on every API answer, Retry-After, Idempotency-*', () => {
    for (const { method, path, operation } of operations().filter(({ path }) => !path.startsWith('/health/'))) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = Object.keys(resolved(response!).headers ?? {});
        expect({ [`${method} ${path} ${status}`]: headers }).toEqual({
          [`${method} ${path} ${status}`]: expect.arrayContaining(['X-Request-Id']),
        });
        if (!['431', '500'].includes(status))
          expect(headers).toEqual(
            expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
          );
        if (method === 'post' && status.startsWith('2')) expect(headers).toContain('Idempotency-Replayed');
      }
      if (method === 'post' && operation.security?.length !== 0) {
        expect(operation.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
      }
    }
    for (const name of ['RateLimited', 'ServiceUnavailable', 'Conflict']) {
      expect(Object.keys((document.components!.responses![name] as ResponseObject).headers!)).toContain('Retry-After');
    }
    expect(document.components!.parameters!.IdempotencyKey).toMatchObject({
      in: 'header',
      schema: { minLength: 1, maxLength: 255 },
    });
  });

  it('gives every tag a description, Positions capitalised like the others', () => {
    const used = new Set(operations().flatMap(({ operation }) => operation.tags ?? []));
    expect(document.tags!.map(({ name }) => name).sort()).toEqual([...used].sort());
    expect(document.tags!.every(({ description }) => Boolean(description))).toBe(true);
    expect(used).toContain('Positions');
  });

  it('bounds search at 200 characters, in the document and in the answer', async () => {
    for (const path of ['/employees', '/skills']) {
      const search = (document.paths[path].get!.parameters as ParameterObject[]).find(({ name }) => name === 'search');
      expect(search?.schema).toMatchObject({ maxLength: 200 });
      await api.get(`${path}?search=${'a'.repeat(200)}`).expect(200);
      const refused = await api.get(`${path}?search=${'a'.repeat(201)}`).expect(400);
      expect(refused.body.error.details).toEqual([
        { field: 'search', message: 'search must be shorter than or equal to 200 characters' },
      ]);
    }
  });

  it('still answers a malformed path id 404, though the document says UUID', async () => {
    await api.get('/employees/not-a-uuid').expect(404);
  });

  it('reports a missing required field as missing, not as too long', async () => {
    const response = await api
      .post('/employees', { firstName: 'Ada', lastName: 'Lovelace', businessEmail: 'ada@example.com' })
      .expect(400);
    expect(response.body.error.details).toEqual([
      { field: 'personnelNumber', message: 'personnelNumber should not be empty' },
    ]);
  });

  it('holds every response of the suite to it: the check refuses what the document does not say', async () => {
    const answer = await api.get('/skills').expect(200);
    const checker = documentChecker(suite.app);
    const response: ResponseToCheck = { status: answer.status, headers: answer.headers, body: answer.body };
    expect(checker.problems('get', '/api/v1/skills', response)).toEqual([]);
    const problems = (changed: Partial<ResponseToCheck>) =>
      checker.problems('get', '/api/v1/skills', { ...response, ...changed }).join('\n');
    expect(problems({ status: 418 })).toMatch(/status not documented/);
    expect(problems({ body: { ...answer.body, meta: { ...answer.body.meta, total: 1.5 } } })).toMatch(/integer/);
    expect(problems({ body: { ...answer.body, extra: true } })).toMatch(/additional properties/);
    expect(problems({ headers: { ...answer.headers, 'x-ratelimit-limit': undefined } })).toMatch(/missing/);
    expect(problems({ headers: { ...answer.headers, 'retry-after': '5' } })).toMatch(/not documented/);
  });

  it('checks every body as third-party validators do: the old oneOf of two metas fails each of them', async () => {
    const answer = await api.get('/skills?page=1&limit=1').expect(200);
    expect(answer.body.meta).toHaveProperty('nextCursor');
    // Before: meta was oneOf [page meta, cursor meta], and a page-mode meta matches both (neither is closed).
    const before = structuredClone(document);
    before.components!.schemas!.PaginationMeta = {
      type: 'object',
      properties: {
        total: { type: 'integer' },
        page: { type: 'integer' },
        limit: { type: 'integer' },
        totalPages: { type: 'integer' },
        hasNextPage: { type: 'boolean' },
        hasPrevPage: { type: 'boolean' },
        nextCursor: { type: 'string', nullable: true },
      },
      required: ['total', 'page', 'limit', 'totalPages', 'hasNextPage', 'hasPrevPage', 'nextCursor'],
    };
    before.components!.schemas!.CursorPageMeta = {
      type: 'object',
      properties: {
        limit: { type: 'integer' },
        hasNextPage: { type: 'boolean' },
        nextCursor: { type: 'string', nullable: true },
      },
      required: ['limit', 'hasNextPage', 'nextCursor'],
    };
    const schema = (before.paths['/skills'].get!.responses['200'] as ResponseObject).content!['application/json']
      .schema as SchemaObject;
    schema.properties!.meta = {
      oneOf: [{ $ref: '#/components/schemas/PaginationMeta' }, { $ref: '#/components/schemas/CursorPageMeta' }],
    };
    const response: ResponseToCheck = { status: answer.status, headers: answer.headers, body: answer.body };
    const problems = new OpenApiResponseChecker(before).problems('get', '/api/v1/skills', response).join('\n');
    for (const validator of ['ajv strict', 'ajv lenient', 'openapi-response-validator']) {
      expect(problems).toContain(`[${validator}]: /meta must match exactly one schema in oneOf`);
    }
    // The stricter check closes every object, so that only one branch matches: alone, it let this through.
    expect(problems).not.toContain('[no undocumented property]');
    expect(documentChecker(suite.app).problems('get', '/api/v1/skills', response)).toEqual([]);
  });

  it('titles the documentation page after the API', async () => {
    const response = await withoutKey.call('get', '/docs').redirects(1).expect(200);
    expect(response.text).toContain('<title>Skills Management API</title>');
  });
});
