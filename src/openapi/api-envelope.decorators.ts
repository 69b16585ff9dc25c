import { applyDecorators, HttpStatus, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ListMeta } from '../pagination/pagination';

/**
 * The errors a route's own rules answer (a 404 for an unknown id, a 409 for a duplicate). Those every route
 * shares (400, 401, 429, 500, 503; 413 and 415 with a body; 409 and 422 on a POST) and the shape of each
 * are added to every operation by finishDocument.
 */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(...statuses.map((status) => ApiResponse({ status, description: `Error ${status}` })));
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
  const data =
    isArray || paginated ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  const properties: Record<string, object> = { success: { type: 'boolean', enum: [true] }, data };
  if (paginated) properties.meta = { $ref: getSchemaPath(ListMeta) };
  return applyDecorators(
    ApiExtraModels(model, ListMeta),
    ApiResponse({
      status,
      description,
      schema: { type: 'object', required: Object.keys(properties), properties },
    }),
  );
}
