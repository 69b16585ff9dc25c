import { STATUS_CODES } from 'node:http';
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
  TagObject,
} from '@nestjs/swagger';
import { getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelope } from './envelope.schemas';
import { SERVICE_SCHEMAS, servicePaths } from './service-paths';
import {
  API_RESPONSE_HEADERS,
  ERROR_RESPONSES,
  errorResponse,
  errorResponseRef,
  HeaderName,
  HEADERS,
  headersOf,
  HeaderUse,
  PARAMETERS,
} from './shared-components';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type Method = (typeof METHODS)[number];

/**
 * The scope a secured operation needs (auth/scopes.ts's operationScope): passed in, since auth/ builds on
 * openapi/ and openapi/ must not import it back.
 */
export type ScopeOf = (method: string, operation: OperationObject) => string | null;

const TAG_DESCRIPTIONS: Record<string, string> = {
  Employees: 'The people of the organisation; deactivation is a soft delete.',
  'Employee skills': "An employee's skills, each with its latest rating.",
  Ratings: 'Every rating of an employee, newest first.',
  Skills:
    "The organisation's skills catalogue: each skill's rating scale, aliases, groups and source, and name resolution.",
  'Skill groups': 'Families of skills, each with any number of parents (a polyhierarchy, as ESCO has).',
  Positions: 'Read only: positions come in through the `positions import` command.',
  Webhooks: 'Endpoints told of changes by signed POSTs, and their delivery log.',
  Me: 'The organisation and the API key of the request.',
  Events: 'Every event the service emitted, kept EVENT_RETENTION_DAYS (30 by default), paged by cursor.',
  Service: 'Health checks and the description of the API itself; no key needed.',
};

/**
 * What the document says of every operation, applied once here instead of on every route, so a new route
 * or field needs nothing of its own (docs/api-decisions.md, "The OpenAPI document"):
 * - paths are relative to the server `/api/v1` (the spec's {base_url}); health checks name the host itself;
 * - every response carries `X-Request-Id` and, under /api/v1, the `X-RateLimit-*` headers;
 * - an operation that needs a scope (the route's @RequiresScope) says which in its description and lists 403;
 * - every error every route shares is listed: 400 (query, body or header), 401 (with a key), 404 (a path
 *   id), 409 and 422 (`Idempotency-Key`, on every POST), 413 and 415 (a body), 429, 431 (headers too
 *   large), 500, 503 (the database);
 * - path ids are UUIDs; nullable references and enums allow null in the way OpenAPI 3.0.3 defines;
 * - request bodies show their defaults in the description, not as `default`, which generators read as
 *   "always present".
 */
export function finishDocument(scanned: OpenAPIObject, apiPrefix: string, scopeOf: ScopeOf): OpenAPIObject {
  // A copy, since the scanned schemas may share objects with the decorators' metadata, which other apps
  // read; as JSON, which is all a document is.
  const document = JSON.parse(JSON.stringify(scanned)) as OpenAPIObject;
  const errorEnvelopeRef = getSchemaPath(ErrorEnvelope);
  const service = servicePaths(errorEnvelopeRef);
  const apiPaths: Record<string, PathItemObject> = { ...service.api };
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith(`${apiPrefix}/`))
      throw new Error(`${path} is outside ${apiPrefix}: describe it in service-paths.ts`);
    apiPaths[path.slice(apiPrefix.length)] = item;
  }
  for (const item of Object.values(apiPaths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) describeApiOperation(method, operation, scopeOf);
    }
  }
  const schemas = { ...(document.components?.schemas ?? {}), ...SERVICE_SCHEMAS } as Record<string, SchemaObject>;
  for (const name of requestBodySchemas(apiPaths, schemas)) moveDefaultsToDescriptions(schemas[name]);
  for (const schema of Object.values(schemas)) allowNullAsOpenApi303Says(schema);
  const paths = { ...apiPaths, ...service.host };
  return {
    ...document,
    openapi: '3.0.3',
    servers: [{ url: apiPrefix, description: "The API on the host serving this document (the spec's {base_url})" }],
    paths,
    tags: tagsOf(paths),
    components: {
      ...document.components,
      schemas,
      headers: HEADERS,
      parameters: PARAMETERS,
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, { name, headers = [] }]) => [
          name,
          errorResponse(Number(status), [...errorResponseHeaders(Number(status)), ...headers], errorEnvelopeRef),
        ]),
      ),
    },
  };
}

/**
 * Headers that are too large are answered before the request reaches the application; a defect may stop
 * a request before the rate limit has counted it; every other answer is counted.
 */
function errorResponseHeaders(status: number): HeaderUse[] {
  if (status === 431) return ['X-Request-Id'];
  if (status !== 500) return API_RESPONSE_HEADERS;
  const sentWhen = 'Sent when the request got as far as the rate limit.';
  return ['X-Request-Id', ...API_RESPONSE_HEADERS.slice(1).map((name) => ({ name, sentWhen }))];
}

function describeApiOperation(method: Method, operation: OperationObject, scopeOf: ScopeOf): void {
  const secured = operation.security?.length !== 0;
  const hasBody = method === 'post' || method === 'put' || method === 'patch';
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  for (const parameter of parameters.filter(({ in: location }) => location === 'path')) {
    parameter.schema = { type: 'string', format: 'uuid' };
    parameter.description ??= 'An id (UUID); a malformed one is simply unknown: 404';
  }
  if (method === 'post' && secured)
    operation.parameters = [...parameters, { $ref: '#/components/parameters/IdempotencyKey' }];

  const scope = secured ? scopeOf(method, operation) : null;
  if (scope !== null) {
    const requires = `Requires the \`${scope}\` scope.`;
    operation.description = operation.description ? `${operation.description}\n\n${requires}` : requires;
  }

  const statuses = new Set(Object.keys(operation.responses).map(Number));
  const shared = [
    400,
    ...(scope !== null ? [403] : []),
    429,
    431,
    500,
    ...(secured ? [401, 503] : []),
    ...(parameters.some(({ in: location }) => location === 'path') ? [404] : []),
    ...(hasBody ? [413, 415] : []),
    ...(method === 'post' && secured ? [409, 422] : []),
  ];
  for (const status of shared) statuses.add(status);
  operation.responses = Object.fromEntries(
    [...statuses]
      .sort((a, b) => a - b)
      .map((status) => [
        status,
        status < 400 ? described(method, status, operation.responses[status]) : errorResponseRef(status),
      ]),
  );
}

/** A success with its headers, and the status's reason phrase where the route gave no description. */
function described(
  method: Method,
  status: number,
  response: ResponseObject | ReferenceObject | undefined,
): ResponseObject {
  if (!response || '$ref' in response) throw new Error('A success response must be described on its route');
  const names: HeaderName[] =
    method === 'post' ? [...API_RESPONSE_HEADERS, 'Idempotency-Replayed'] : API_RESPONSE_HEADERS;
  return { ...response, description: response.description || (STATUS_CODES[status] ?? ''), headers: headersOf(names) };
}

/** The tags in the order operations first use them, each with its description. */
function tagsOf(paths: Record<string, PathItemObject>): TagObject[] {
  const names = new Set(Object.values(paths).flatMap((item) => METHODS.flatMap((method) => item[method]?.tags ?? [])));
  return [...names].map((name) => ({
    name,
    ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
  }));
}

const COMPONENT_SCHEMA = '#/components/schemas/';

/** The component schemas a request body refers to, directly or through other schemas. */
function requestBodySchemas(paths: Record<string, PathItemObject>, schemas: Record<string, SchemaObject>): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const ref = (node as ReferenceObject).$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENT_SCHEMA)) {
      const name = ref.slice(COMPONENT_SCHEMA.length);
      if (found.has(name)) return;
      found.add(name);
      return visit(schemas[name]);
    }
    Object.values(node).forEach(visit);
  };
  for (const item of Object.values(paths)) {
    for (const method of METHODS) visit(item[method]?.requestBody);
  }
  return found;
}

/**
 * openapi-typescript (and others) type a property with a `default` as always present, which is true of
 * a response and false of a request: a client may leave it out. The default stays, in words.
 */
function moveDefaultsToDescriptions(schema: SchemaObject): void {
  for (const property of Object.values(schema.properties ?? {}) as SchemaObject[]) {
    if (property.default === undefined) continue;
    const said = `Default: \`${JSON.stringify(property.default)}\`.`;
    property.description = property.description ? `${property.description.replace(/\.?$/, '.')} ${said}` : said;
    delete property.default;
  }
}

/**
 * OpenAPI 3.0.3 (its "nullable" clarification): `nullable` widens only the `type` beside it, so
 * `{nullable, allOf: [$ref]}`, which @nestjs/swagger writes for a nullable object, still refuses null;
 * and an enum must list null itself. Rewritten to forms validators and generators read as `X | null`.
 */
function allowNullAsOpenApi303Says(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(allowNullAsOpenApi303Says);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as SchemaObject;
  if (schema.nullable && schema.allOf?.length === 1 && '$ref' in schema.allOf[0]) {
    const { nullable: _nullable, type: _type, allOf, ...rest } = schema;
    for (const key of Object.keys(schema)) delete (schema as Record<string, unknown>)[key];
    Object.assign(schema, rest, { anyOf: [allOf[0], { type: 'object', nullable: true, enum: [null] }] });
  } else if (schema.nullable && schema.enum && !schema.enum.includes(null)) {
    schema.enum = [...(schema.enum as unknown[]), null];
  }
  Object.values(schema).forEach(allowNullAsOpenApi303Says);
}
