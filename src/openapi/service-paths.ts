import type { OperationObject, PathsObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { errorResponse, headerRef } from './shared-components';

const SERVICE_TAG = 'Service';

/** `{success: true, data}` around the schema named. */
function envelope(schemaName: string): SchemaObject {
  return {
    type: 'object',
    required: ['success', 'data'],
    properties: {
      success: { type: 'boolean', enum: [true] },
      data: { $ref: `#/components/schemas/${schemaName}` },
    },
  };
}

/** The schemas of the routes below that no DTO describes. */
export const SERVICE_SCHEMAS: Record<string, SchemaObject> = {
  Liveness: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['ok'] } },
  },
  HealthIndicator: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['up', 'down'] } },
  },
  Readiness: {
    type: 'object',
    description: 'The result of the checks (only `database` today), as @nestjs/terminus reports it.',
    required: ['status', 'info', 'error', 'details'],
    properties: {
      status: { type: 'string', enum: ['ok'] },
      info: { type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthIndicator' } },
      error: { type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthIndicator' } },
      details: { type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthIndicator' } },
    },
  },
  ApiRoot: {
    type: 'object',
    required: ['docs', 'openapi'],
    properties: {
      docs: {
        type: 'string',
        maxLength: 2048,
        description: 'The interactive documentation page',
        example: '/api/v1/docs',
      },
      openapi: {
        type: 'string',
        maxLength: 2048,
        description: 'This document (`.yaml` for YAML)',
        example: '/api/v1/openapi.json',
      },
    },
  },
};

/** A health route: outside /api/v1, so on the host itself; no key, no rate limit. */
function healthOperation(
  summary: string,
  description: string,
  operationId: string,
  ok: ResponseObject,
  errorEnvelopeRef: string,
): OperationObject {
  const requestId = { 'X-Request-Id': headerRef('X-Request-Id') };
  return {
    tags: [SERVICE_TAG],
    summary,
    description,
    operationId,
    security: [],
    responses: {
      200: { ...ok, headers: requestId },
      400: errorResponse(400, ['X-Request-Id'], errorEnvelopeRef),
      431: errorResponse(431, ['X-Request-Id'], errorEnvelopeRef),
      500: errorResponse(500, ['X-Request-Id'], errorEnvelopeRef),
    },
  };
}

/** A public route under /api/v1: no key, rate limited like every other; `finishDocument` adds its shared answers. */
function publicApiOperation(
  summary: string,
  operationId: string,
  ok: ResponseObject,
  description?: string,
): OperationObject {
  return {
    tags: [SERVICE_TAG],
    summary,
    ...(description ? { description } : {}),
    operationId,
    security: [],
    responses: { 200: ok },
  };
}

/**
 * The routes that are not resources of the API, described here because their controllers are left out
 * of the scan: they need no key (`security: []`), and the health checks lie outside /api/v1.
 */
export function servicePaths(errorEnvelopeRef: string): { api: PathsObject; host: PathsObject } {
  const ready = healthOperation(
    'Whether this instance should get traffic',
    'Ready while the database answers within 1.5 s and the instance is not shutting down. For balancers and ' +
      'orchestrators: no key, not rate limited.',
    'HealthController_ready',
    {
      description: 'The database answers',
      content: { 'application/json': { schema: envelope('Readiness') } },
    },
    errorEnvelopeRef,
  );
  ready.responses[503] = {
    ...errorResponse(503, ['X-Request-Id', 'Retry-After'], errorEnvelopeRef),
    description:
      'SERVICE_UNAVAILABLE: the database does not answer (`Retry-After: 5`) or the instance is shutting down ' +
      '(`Retry-After: 30`).',
  };
  return {
    host: {
      '/health/live': {
        servers: [{ url: '/', description: 'The host itself: health checks are outside /api/v1' }],
        get: healthOperation(
          'Whether the process is up',
          'For orchestrators: no key, not rate limited, no database involved.',
          'HealthController_live',
          { description: 'The process is up', content: { 'application/json': { schema: envelope('Liveness') } } },
          errorEnvelopeRef,
        ),
      },
      '/health/ready': {
        servers: [{ url: '/', description: 'The host itself: health checks are outside /api/v1' }],
        get: ready,
      },
    },
    api: {
      '/': {
        get: publicApiOperation('Where the API describes itself', 'RootController_root', {
          description: 'Links to the documentation page and to this document',
          content: { 'application/json': { schema: envelope('ApiRoot') } },
        }),
      },
      '/openapi.json': {
        get: publicApiOperation(
          'This document, in JSON',
          'OpenApiDocumentController_json',
          {
            description: 'The OpenAPI 3.0 document',
            content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.0 document' } } },
          },
          'The interactive page over it is `GET /api/v1/docs`.',
        ),
      },
      '/openapi.yaml': {
        get: publicApiOperation('This document, in YAML', 'OpenApiDocumentController_yaml', {
          description: 'The OpenAPI 3.0 document',
          content: { 'application/yaml': { schema: { type: 'string', description: 'An OpenAPI 3.0 document' } } },
        }),
      },
    },
  };
}
