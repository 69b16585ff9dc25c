import type { ParameterObject, ReferenceObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger';
import * as fc from 'fast-check';
import request from 'supertest';
import { checkedRequest } from '../support/api-client';
import { Method, OpenAPIObject, operationsOf } from '../support/openapi-document';
import { createEmployee, createSkill } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

/** Fixed, so a failure is reproducible; FUZZ_RUNS raises the count for a longer local run. */
const SEED = 20261123;
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

interface Operation {
  method: Method;
  /** As a client requests it: the server's URL before the document's path. */
  path: string;
  query: string[];
  body: string[];
}

/** Every operation the service describes, with the names of its query parameters and body fields. */
function fuzzedOperations(document: OpenAPIObject): Operation[] {
  return operationsOf(document).map(({ method, servedPath, operation }) => {
    const body = operation.requestBody as RequestBodyObject | undefined;
    const ref = (body?.content['application/json']?.schema as ReferenceObject | undefined)?.$ref;
    const schema = ref ? (document.components?.schemas?.[ref.split('/').pop()!] as SchemaObject) : undefined;
    return {
      method,
      path: servedPath,
      query: ((operation.parameters ?? []) as ParameterObject[]).filter((p) => p.in === 'query').map((p) => p.name),
      body: Object.keys(schema?.properties ?? {}),
    };
  });
}

// Strings that have broken services before: NUL, lone surrogates, huge and odd numbers, SQL and LIKE text.
const nasty = fc.constantFrom(
  '\u0000',
  'a\ud800b',
  '\udc00',
  '99999999999999999999',
  '4611686018427387904',
  '-1',
  '1.5',
  '1e3',
  'NaN',
  "'; DROP TABLE employees; --",
  '%_\\',
  '',
  ' ',
  'true',
  'null',
  '2026-02-30',
  'x'.repeat(3000),
);
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string(), nasty);
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const memberName = fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf');

describe('fuzz: no client input causes a 5xx', () => {
  const suite = useTestApp({ config: { webhookTimeoutMs: 300 }, tenant: 'once' });
  let operations: Operation[];
  let ids: string[];

  beforeAll(async () => {
    const employee = await createEmployee(suite.app, suite.tenant);
    const skill = await createSkill(suite.app, suite.tenant);
    const webhook = await request(suite.app.getHttpServer())
      .post('/api/v1/webhooks')
      .set('Authorization', suite.tenant.bearer)
      .send({ url: 'https://127.0.0.1:9/hook', events: ['employee.created'] })
      .expect(201);
    ids = [employee.id, skill.id, webhook.body.data.id, '00000000-0000-7000-8000-000000000000'];
    const document = (await request(suite.app.getHttpServer()).get('/api/v1/openapi.json').expect(200))
      .body as OpenAPIObject;
    operations = fuzzedOperations(document);
  });

  it(
    `answers ${RUNS} fuzzed requests over every operation without a 5xx`,
    async () => {
      expect(operations.length).toBeGreaterThan(15);
      // Mostly requests a handler gets to see (known ids, known fields), with garbage now and then.
      const pathValue = fc.oneof({ arbitrary: fc.constantFrom(...ids), weight: 4 }, text, fc.uuid());
      const queryValue = fc.oneof(
        fc.nat().map(String),
        fc.bigInt({ min: 0n, max: 2n ** 70n }).map(String),
        nasty,
        text,
      );
      const requestArbitrary = fc.record({
        operation: fc.constantFrom(...operations),
        pathValues: fc.array(pathValue, { minLength: 4, maxLength: 4 }),
        query: fc.option(
          fc.array(fc.tuple(fc.oneof(text, memberName), fc.oneof(text, fc.array(text))), {
            minLength: 1,
            maxLength: 3,
          }),
          { freq: 4 },
        ),
        knownQuery: fc.array(fc.tuple(fc.nat(), queryValue), { maxLength: 2 }),
        knownBody: fc.array(fc.tuple(fc.nat(), jsonValue), { maxLength: 5 }),
        extraBody: fc.option(fc.dictionary(fc.oneof(text, memberName), jsonValue, { minKeys: 1, maxKeys: 2 }), {
          freq: 4,
        }),
        rawBody: fc.option(fc.oneof(fc.string(), fc.constant('{"a":' + '['.repeat(5000)), fc.constant('[1,2]')), {
          freq: 5,
        }),
        contentType: fc.constantFrom(
          'application/json',
          'application/json',
          'application/json',
          'text/plain',
          'application/json; charset=latin1',
        ),
      });

      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestArbitrary, async (input) => {
          const { operation } = input;
          let index = 0;
          const path = operation.path.replace(/\{[^}]+\}/g, () =>
            encodeURIComponent(input.pathValues[index++ % 4].toWellFormed()),
          );
          const params = new URLSearchParams();
          for (const [name, value] of input.query ?? []) for (const one of [value].flat()) params.append(name, one);
          for (const [pick, value] of input.knownQuery) {
            if (operation.query.length) params.append(operation.query[pick % operation.query.length], value);
          }
          const body: Record<string, unknown> = { ...(input.extraBody ?? {}) };
          for (const [pick, value] of input.knownBody) {
            if (operation.body.length) body[operation.body[pick % operation.body.length]] = value;
          }
          // Every answer, errors included, must also be one the document describes.
          const call = checkedRequest(suite.app)
            [operation.method](`${path}${params.size ? `?${params.toString()}` : ''}`)
            .set('Authorization', suite.tenant.bearer);
          const withBody = ['post', 'put', 'patch'].includes(operation.method);
          const response = withBody
            ? await call.set('Content-Type', input.contentType).send(input.rawBody ?? JSON.stringify(body))
            : await call;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 500) {
            throw new Error(
              `${operation.method.toUpperCase()} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`,
            );
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // The fuzzing reached the handlers too, not only the checks in front of them.
      const succeeded = [...statuses].filter(([status]) => status < 300).reduce((sum, [, count]) => sum + count, 0);
      expect(succeeded).toBeGreaterThan(0);
      if (process.env.FUZZ_RUNS) console.log(Object.fromEntries(statuses));
    },
    30_000 + RUNS * 20,
  );
});
