import { applyDecorators, HttpStatus, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PaginationMeta } from '../pagination';
import { ErrorEnvelope } from './envelope.schemas';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION_ERROR: invalid or missing input',
  401: 'UNAUTHORIZED: missing or invalid API key',
  404: 'NOT_FOUND: unknown, foreign or malformed id',
  409: 'CONFLICT: duplicate or dependent resource',
  413: 'PAYLOAD_TOO_LARGE: body over 1 MiB',
  415: 'UNSUPPORTED_MEDIA_TYPE: body is not application/json',
  429: 'RATE_LIMITED: over the rate limit',
};

/** Documents the error envelope for the given statuses (401 and 429 apply to every route and are added). */
export function ApiErrors(...statuses: number[]) {
  const all = [...new Set([...statuses, 401, 429])];
  return applyDecorators(
    ...all.map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status], schema: { $ref: getSchemaPath(ErrorEnvelope) } }),
    ),
  );
}

interface EnvelopeOptions {
  status?: HttpStatus;
  isArray?: boolean;
  paginated?: boolean;
  description?: string;
}

/** Documents a success as `{success: true, data: model | model[], meta?}`. */
export function ApiEnvelope(model: Type<unknown>, options: EnvelopeOptions = {}) {
  const { status = HttpStatus.OK, isArray = false, paginated = false, description } = options;
  const data = isArray || paginated ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  const properties: Record<string, object> = { success: { type: 'boolean', enum: [true] }, data };
  if (paginated) properties.meta = { $ref: getSchemaPath(PaginationMeta) };
  return applyDecorators(
    ApiExtraModels(model, PaginationMeta),
    ApiResponse({
      status,
      description,
      schema: { type: 'object', required: Object.keys(properties), properties },
    }),
  );
}
