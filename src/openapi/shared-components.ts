import type { HeaderObject, ParameterObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';
import { ErrorCode } from '../errors/errors';

/** The headers the service sends, each described once and referred to by every response that carries it. */
export const HEADERS = {
  'X-Request-Id': {
    description:
      "The request's id, as the access log names it: the `X-Request-Id` the client sent when it is 1–128 letters, " +
      'digits, `_`, `.` or `-`, else a new UUID.',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[\\w.-]+$' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window (a fixed minute) for this API key, or client address without a key.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window ends.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Idempotency-Replayed': {
    description:
      'On a POST: `true` when this answer is the stored answer (status and body, whatever the status) to an earlier ' +
      'request with the same `Idempotency-Key`, so nothing was changed again; absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
  },
  ETag: {
    description:
      'The version of the one resource the answer carries (its `version`), as `"<version>"`: send it back as ' +
      '`If-Match` to write only if nobody changed the resource since.',
    required: true,
    schema: { type: 'string', pattern: '^"[0-9]+"$' },
  },
} satisfies Record<string, HeaderObject>;

export type HeaderName = keyof typeof HEADERS;

/** The headers of every response under /api/v1 (docs/api-decisions.md, "Errors" and "Rate limit"). */
export const API_RESPONSE_HEADERS: HeaderName[] = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

export const PARAMETERS = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the POST safe to retry. The first request with a key runs normally and its answer is kept 24 hours for ' +
      'the organisation and key; the same key with the same method, path and body (the same JSON value) gets that ' +
      'answer again with `Idempotency-Replayed: true` and changes nothing. The same key with a different request: ' +
      '422 `IDEMPOTENCY_KEY_REUSED`; while the first request is still running: 409 with `Retry-After`. A 5xx is not ' +
      'kept. 1–255 printable ASCII characters, else 400.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  },
} satisfies Record<string, ParameterObject>;

/** A header on one response: the shared component, or, where it is not always sent, a copy that says when it is. */
export type HeaderUse = HeaderName | { name: HeaderName; sentWhen: string };

interface ErrorResponse {
  name: string;
  code: ErrorCode;
  description: string;
  example: string;
  /** Beside the headers of every API response; `Idempotency-Replayed` where a POST's rules may answer it (a replay). */
  headers?: HeaderUse[];
}

/** Every error status the API answers, as a reusable response: the one error envelope, and its code. */
export const ERROR_RESPONSES: Record<number, ErrorResponse> = {
  400: {
    name: 'ValidationError',
    code: ErrorCode.VALIDATION_ERROR,
    description:
      'VALIDATION_ERROR: a bad body, query or header (malformed JSON, an unknown or missing field, a wrong type, a ' +
      'value out of range); `details` names each field.',
    example: 'personnelNumber should not be empty',
    headers: ['Idempotency-Replayed'],
  },
  401: {
    name: 'Unauthorized',
    code: ErrorCode.UNAUTHORIZED,
    description: 'UNAUTHORIZED: a missing, malformed, unknown or revoked API key.',
    example: 'Missing or invalid API key',
  },
  403: {
    name: 'Forbidden',
    code: ErrorCode.FORBIDDEN,
    description:
      'FORBIDDEN: the API key lacks the scope the operation needs (its description names it); answered before the ' +
      "body is read, and never for another organisation's ids (those are 404).",
    example: 'This API key lacks the "write" scope',
  },
  404: {
    name: 'NotFound',
    code: ErrorCode.NOT_FOUND,
    description: 'NOT_FOUND: an unknown id, an id of another organisation, or a path id that is not a UUID.',
    example: 'Employee not found',
    headers: ['Idempotency-Replayed'],
  },
  409: {
    name: 'Conflict',
    code: ErrorCode.CONFLICT,
    description:
      'CONFLICT: a duplicate unique value or a resource that others depend on; on a POST also a request with the ' +
      'same `Idempotency-Key` that is still running, which carries `Retry-After`.',
    example: 'An employee with this personnelNumber already exists',
    headers: [
      { name: 'Retry-After', sentWhen: 'Sent when a request with the same `Idempotency-Key` is still running.' },
      'Idempotency-Replayed',
    ],
  },
  412: {
    name: 'PreconditionFailed',
    code: ErrorCode.PRECONDITION_FAILED,
    description:
      'PRECONDITION_FAILED: `If-Match` names another version than the current one; nothing was written. ' +
      '`details` names each field changed since that version, with its current value, while the kept history ' +
      'holds it.',
    example: 'The Employee is at version 4, not 3: nothing was written',
  },
  413: {
    name: 'PayloadTooLarge',
    code: ErrorCode.PAYLOAD_TOO_LARGE,
    description: 'PAYLOAD_TOO_LARGE: a body over 1 MiB.',
    example: 'Request body exceeds 1 MiB',
  },
  415: {
    name: 'UnsupportedMediaType',
    code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    description: 'UNSUPPORTED_MEDIA_TYPE: a body that is not `application/json` (UTF-8).',
    example: 'Request body must be application/json',
  },
  422: {
    name: 'IdempotencyKeyReused',
    code: ErrorCode.IDEMPOTENCY_KEY_REUSED,
    description: 'IDEMPOTENCY_KEY_REUSED: the `Idempotency-Key` was sent before with a different method, path or body.',
    example: 'This Idempotency-Key was used with a different request',
  },
  428: {
    name: 'PreconditionRequired',
    code: ErrorCode.PRECONDITION_REQUIRED,
    description:
      'PRECONDITION_REQUIRED: REQUIRE_IF_MATCH is on and this PATCH or DELETE names no version (`If-Match`, or ' +
      '`Base-Version` on a PATCH).',
    example: 'This Employee write needs If-Match or Base-Version naming the version it is based on',
  },
  429: {
    name: 'RateLimited',
    code: ErrorCode.RATE_LIMITED,
    description: 'RATE_LIMITED: over the rate limit; the body was not read.',
    example: 'Rate limit exceeded, retry after the window resets',
    headers: ['Retry-After'],
  },
  431: {
    name: 'RequestHeaderFieldsTooLarge',
    code: ErrorCode.VALIDATION_ERROR,
    description:
      'VALIDATION_ERROR: the request line and headers together exceed 16 KiB (a very long query string, say); ' +
      'answered by the HTTP server before any check.',
    example: 'Request header fields too large',
  },
  500: {
    name: 'InternalError',
    code: ErrorCode.INTERNAL_ERROR,
    description: 'INTERNAL_ERROR: a defect of the service; the message is generic and the cause is only logged.',
    example: 'Internal server error',
  },
  503: {
    name: 'ServiceUnavailable',
    code: ErrorCode.SERVICE_UNAVAILABLE,
    description:
      'SERVICE_UNAVAILABLE: the database is unreachable or did not answer in time; retry after `Retry-After`.',
    example: 'The database is unavailable; retry later',
    headers: ['Retry-After'],
  },
};

export const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

/** The `headers` of a response object. */
export function headersOf(uses: HeaderUse[]): Record<string, HeaderObject | ReferenceObject> {
  return Object.fromEntries(
    uses.map((use): [string, HeaderObject | ReferenceObject] => {
      if (typeof use === 'string') return [use, headerRef(use)];
      const { description, schema } = HEADERS[use.name];
      return [use.name, { description: `${description} ${use.sentWhen}`, required: false, schema }];
    }),
  );
}
export function errorResponseRef(status: number): { $ref: string } {
  const response = ERROR_RESPONSES[status] as ErrorResponse | undefined;
  if (!response) throw new Error(`No error response is described for status ${status}: add it to ERROR_RESPONSES`);
  return { $ref: `#/components/responses/${response.name}` };
}

/** An error response with the error envelope, for `components.responses` or a route outside the API. */
export function errorResponse(status: number, headers: HeaderUse[], errorEnvelopeRef: string): ResponseObject {
  const { code, description, example } = ERROR_RESPONSES[status];
  return {
    description,
    headers: headersOf(headers),
    content: {
      'application/json': {
        schema: { $ref: errorEnvelopeRef },
        example: { success: false, error: { message: example, code } },
      },
    },
  };
}
