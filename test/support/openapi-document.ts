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

/** A deep copy of a schema whose objects refuse properties they do not describe, and whose refs point into `components`. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (typeof node !== 'object' || node === null) return node;
  const copy: SchemaObject & { $ref?: string } = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, closed(value)]),
  );
  if (typeof copy.$ref === 'string' && copy.$ref.startsWith(SCHEMAS)) {
    copy.$ref = `components#/definitions/${copy.$ref.slice(SCHEMAS.length)}`;
  }
  if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/**
 * Checks responses against the document with ajv in strict mode, more strictly than the document asks:
 * an object may hold no property the document does not name, so a field added to a response but not
 * to the document fails too. Checked: that the status is documented for the operation, the body against
 * its schema, the documented headers (present when required, valid when present), and that none of the
 * service's own headers is sent where the document does not say so.
 */
export class OpenApiResponseChecker {
  private readonly ajv = new Ajv({ strict: true, allErrors: true });
  private readonly routes: Array<{
    method: Method;
    pattern: RegExp;
    params: number;
    path: string;
    operation: OperationObject;
  }>;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly serviceHeaders: string[];

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    this.ajv.addKeyword('example');
    this.ajv.addSchema({ $id: 'components', definitions: closed(document.components?.schemas ?? {}) });
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
      return this.bodyProblems(
        `${where} (no operation)`,
        { $ref: 'components#/definitions/ErrorEnvelope' },
        response.body,
      );
    }
    const described = route.operation.responses[String(response.status)] ?? route.operation.responses.default;
    if (!described) {
      return [
        `${where}: status not documented for ${method.toUpperCase()} ${route.path} (${JSON.stringify(response.body)})`,
      ];
    }
    const answer = this.resolve<ResponseObject>(described);
    return [...this.headerProblems(where, answer, response), ...this.contentProblems(where, answer, response)];
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

  private contentProblems(where: string, answer: ResponseObject, response: ResponseToCheck): string[] {
    const type = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    if (!answer.content) return type ? [`${where}: a ${type} body, but the document describes none`] : [];
    const media = answer.content[type];
    if (!media)
      return [`${where}: content type ${type || '(none)'} not among ${Object.keys(answer.content).join(', ')}`];
    if (type !== 'application/json' || !media.schema) return [];
    return this.bodyProblems(where, media.schema, response.body);
  }

  private bodyProblems(where: string, schema: SchemaObject | ReferenceObject, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(closed(schema) as object);
      this.validators.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${where}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
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
