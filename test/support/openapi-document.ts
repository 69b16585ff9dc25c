import { INestApplication } from '@nestjs/common';
import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  PathItemObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger';
import { Ajv, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import OpenAPIResponseValidator, { OpenAPIResponseValidatorArgs } from 'openapi-response-validator';
import { OpenApiDocument } from '../../src/openapi/openapi-document';

export type { OpenAPIObject };

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type Method = (typeof METHODS)[number];

/** What the application serves at /api/v1/openapi.json, parsed: the text itself, not the object it was made from. */
export function servedDocument(app: INestApplication): OpenAPIObject {
  return JSON.parse(app.get(OpenApiDocument).get('json')) as OpenAPIObject;
}

/** The path a client requests for a path of the document: its server's URL (the path's own, else the document's) before it. */
export function servedPath(document: OpenAPIObject, path: string): string {
  const server = document.paths[path].servers?.[0]?.url ?? document.servers?.[0]?.url ?? '/';
  const full = `${server.replace(/\/$/, '')}${path}`;
  return full.length > 1 ? full.replace(/\/$/, '') : full;
}

/** Every operation of the document, with the path a client requests for it. */
export function operationsOf(
  document: OpenAPIObject,
): Array<{ method: Method; path: string; servedPath: string; operation: OperationObject }> {
  return Object.entries(document.paths).flatMap(([path, item]: [string, PathItemObject]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method, path, servedPath: servedPath(document, path), operation }] : [];
    }),
  );
}

/** A response as the checker reads it (supertest's has these). */
export interface ResponseToCheck {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}

const SCHEMAS = '#/components/schemas/';

/** A deep copy of a schema whose refs point into the `components` schema of an Ajv; `close` also makes
 * every object refuse properties it does not describe. */
function forAjv(node: unknown, close: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => forAjv(item, close));
  if (typeof node !== 'object' || node === null) return node;
  const copy: SchemaObject & { $ref?: string } = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, forAjv(value, close)]),
  );
  if (typeof copy.$ref === 'string' && copy.$ref.startsWith(SCHEMAS)) {
    copy.$ref = `components#/definitions/${copy.$ref.slice(SCHEMAS.length)}`;
  }
  if (close && copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/** One Ajv over the document's schemas, compiling each schema once. */
class SchemaValidator {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    readonly name: string,
    document: OpenAPIObject,
    private readonly options: { strict: boolean; close: boolean },
  ) {
    this.ajv = new Ajv({ strict: options.strict, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addKeyword('example');
    this.ajv.addSchema({ $id: 'components', definitions: forAjv(document.components?.schemas ?? {}, options.close) });
  }

  problems(where: string, schema: SchemaObject | ReferenceObject, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(forAjv(schema, this.options.close) as object);
      this.validators.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${where} [${this.name}]: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }
}

/**
 * Checks responses against the document. A body is checked by three validators as third parties run
 * them on the document as served (ajv strict, ajv lenient, openapi-response-validator), so what any of
 * them refuses fails here too; and once more more strictly than the document asks: an object may hold no
 * property the document does not name, so a field added to a response but not to the document fails.
 * (That stricter check alone is not enough: closing every object can make a oneOf match once where the
 * document as served matches twice.) Also checked: that the status is documented for the operation, the
 * documented headers (present when required, valid when present), and that none of the service's own
 * headers is sent where the document does not say so.
 */
export class OpenApiResponseChecker {
  private readonly routes: Array<{
    method: Method;
    pattern: RegExp;
    params: number;
    path: string;
    operation: OperationObject;
  }>;
  private readonly served: SchemaValidator[];
  private readonly closed: SchemaValidator;
  private readonly responseValidators = new Map<string, OpenAPIResponseValidator>();
  private readonly serviceHeaders: string[];

  constructor(private readonly document: OpenAPIObject) {
    this.served = [
      new SchemaValidator('ajv strict', document, { strict: true, close: false }),
      new SchemaValidator('ajv lenient', document, { strict: false, close: false }),
    ];
    this.closed = new SchemaValidator('no undocumented property', document, { strict: true, close: true });
    this.serviceHeaders = Object.keys(document.components?.headers ?? {}).map((name) => name.toLowerCase());
    this.routes = operationsOf(document).map(({ method, path, servedPath: served, operation }) => ({
      method,
      path,
      operation,
      params: (path.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${served.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    // A literal segment wins over a parameter, as in the router.
    this.routes.sort((a, b) => a.params - b.params);
  }

  /** What is wrong with `response` to `method url` by the document; empty when it conforms. */
  problems(method: Method, url: string, response: ResponseToCheck): string[] {
    const path = new URL(url, 'http://localhost').pathname.replace(/(.)\/$/, '$1');
    const route = this.routes.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    const where = `${method.toUpperCase()} ${path} → ${response.status}`;
    if (!route) {
      // A path the document does not describe: an unknown route (404), or a route only tests mount. Its
      // errors still wear the envelope.
      if (response.status < 400) return [];
      return this.bodyProblems(`${where} (no operation)`, { $ref: `${SCHEMAS}ErrorEnvelope` }, response.body);
    }
    const described = route.operation.responses[String(response.status)] ?? route.operation.responses.default;
    if (!described) {
      return [
        `${where}: status not documented for ${method.toUpperCase()} ${route.path} (${JSON.stringify(response.body)})`,
      ];
    }
    const answer = this.resolve<ResponseObject>(described);
    return [
      ...this.headerProblems(where, answer, response),
      ...this.contentProblems(where, `${method} ${route.path} ${response.status}`, answer, response),
    ];
  }

  private headerProblems(where: string, answer: ResponseObject, response: ResponseToCheck): string[] {
    const problems: string[] = [];
    const documented = new Map(
      Object.entries(answer.headers ?? {}).map(([name, header]) => [
        name.toLowerCase(),
        this.resolve<HeaderObject>(header),
      ]),
    );
    for (const [name, header] of documented) {
      const value = response.headers[name];
      if (value === undefined) {
        if (header.required) problems.push(`${where}: header ${name} missing`);
        continue;
      }
      const schema = header.schema as SchemaObject;
      const typed = schema.type === 'integer' && /^\d+$/.test(String(value)) ? Number(value) : value;
      problems.push(...this.bodyProblems(`${where}: header ${name}`, schema, typed));
    }
    for (const name of this.serviceHeaders) {
      if (response.headers[name] !== undefined && !documented.has(name)) {
        problems.push(`${where}: header ${name} sent but not documented on this response`);
      }
    }
    return problems;
  }

  private contentProblems(where: string, key: string, answer: ResponseObject, response: ResponseToCheck): string[] {
    const type = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    if (!answer.content) return type ? [`${where}: a ${type} body, but the document describes none`] : [];
    const media = answer.content[type];
    if (!media)
      return [`${where}: content type ${type || '(none)'} not among ${Object.keys(answer.content).join(', ')}`];
    if (type !== 'application/json' || !media.schema) return [];
    return [
      ...this.bodyProblems(where, media.schema, response.body),
      ...this.responseValidatorProblems(where, key, media.schema, response),
    ];
  }

  private bodyProblems(where: string, schema: SchemaObject | ReferenceObject, value: unknown): string[] {
    return [...this.served, this.closed].flatMap((validator) => validator.problems(where, schema, value));
  }

  /** openapi-response-validator on a JSON body; it fills in defaults, so it is given a copy. */
  private responseValidatorProblems(
    where: string,
    key: string,
    schema: SchemaObject | ReferenceObject,
    response: ResponseToCheck,
  ): string[] {
    let validator = this.responseValidators.get(key);
    if (!validator) {
      validator = new OpenAPIResponseValidator({
        responses: {
          [response.status]: { schema: schema as OpenAPIResponseValidatorArgs['responses'][string]['schema'] },
        },
        components: this.document.components as OpenAPIResponseValidatorArgs['components'],
      });
      this.responseValidators.set(key, validator);
    }
    const result = validator.validateResponse(response.status, structuredClone(response.body)) as
      { errors: Array<{ path?: string; message: string }> } | undefined;
    return (result?.errors ?? []).map(
      ({ path, message }) => `${where} [openapi-response-validator]: /${path ?? ''} ${message}`,
    );
  }

  /** A response or header, or the component its $ref names. */
  private resolve<T>(node: T | ReferenceObject): T {
    if (typeof node !== 'object' || node === null || !('$ref' in node)) return node;
    const [, , section, name] = node.$ref.split('/');
    const components = this.document.components as Record<string, Record<string, unknown>>;
    return components[section][name] as T;
  }
}

const checkers = new WeakMap<INestApplication, OpenApiResponseChecker>();

/** The checker of an application's served document, made once per application. */
export function documentChecker(app: INestApplication): OpenApiResponseChecker {
  let checker = checkers.get(app);
  if (!checker) {
    checker = new OpenApiResponseChecker(servedDocument(app));
    checkers.set(app, checker);
  }
  return checker;
}

/** A supertest assertion (`.expect(...)`) that fails when the response does not conform to the document. */
export function conformsToDocument(app: INestApplication, method: Method, url: string) {
  return (response: ResponseToCheck): void => {
    const problems = documentChecker(app).problems(method, url, response);
    if (problems.length)
      throw new Error(`The response does not conform to the OpenAPI document:\n${problems.join('\n')}`);
  };
}
