import { applyDecorators, HttpStatus, Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiProperty, ApiResponse, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, validateSync } from 'class-validator';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { AppError, ErrorCode, FieldError, ValidationError } from '../errors/errors';
import { toValidationError } from '../validation/validation';

/** At most this many items in one bulk request (docs/api-decisions.md, "Bulk upsert"). */
export const BULK_MAX_ITEMS = 1000;

/** `items` of a bulk body: 1..1000 JSON values, each then validated on its own as its single-item body. */
export function BulkItems(itemModel: Type<unknown>, description: string) {
  return applyDecorators(
    ApiProperty({
      type: itemModel,
      isArray: true,
      minItems: 1,
      maxItems: BULK_MAX_ITEMS,
      description,
    }),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(BULK_MAX_ITEMS),
  );
}

export type BulkStatus = 'created' | 'updated' | 'unchanged' | 'failed';

@ApiSchema({ name: 'BulkItemError' })
export class BulkItemErrorResponse {
  @ApiProperty({
    enum: [ErrorCode.VALIDATION_ERROR, ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.PRECONDITION_FAILED],
  })
  code: ErrorCode;
  @ApiProperty()
  message: string;
  @ApiProperty({
    required: false,
    type: 'array',
    items: {
      type: 'object',
      required: ['field', 'message'],
      properties: { field: { type: 'string' }, message: { type: 'string' } },
    },
  })
  details?: FieldError[];
}

@ApiSchema({ name: 'BulkItemResult' })
export class BulkItemResultResponse {
  @ApiProperty({ type: 'integer', description: 'The position of the item in `items`, from 0' })
  index: number;
  @ApiProperty({ enum: ['created', 'updated', 'unchanged', 'failed'] })
  status: BulkStatus;
  @ApiProperty({ type: String, nullable: true, description: 'The id of the resource; null when the item failed' })
  id: string | null;
  @ApiProperty({
    type: BulkItemErrorResponse,
    nullable: true,
    description: 'What the single-item endpoint would have answered; null unless failed',
  })
  error: BulkItemErrorResponse | null;
}

@ApiSchema({ name: 'BulkMeta' })
export class BulkMetaResponse {
  @ApiProperty({ type: 'integer' })
  created: number;
  @ApiProperty({ type: 'integer' })
  updated: number;
  @ApiProperty({ type: 'integer' })
  unchanged: number;
  @ApiProperty({ type: 'integer' })
  failed: number;
}

/** The answer of a bulk request: one result per item, in item order, and the count of each status. */
export class BulkResult {
  readonly meta: BulkMetaResponse;

  constructor(readonly items: BulkItemResultResponse[]) {
    const meta = { created: 0, updated: 0, unchanged: 0, failed: 0 };
    for (const item of items) meta[item.status] += 1;
    this.meta = meta;
  }
}

/** Where one item of a bulk request stands while the request runs. */
export class BulkItemOutcome {
  status: BulkStatus | null = null;
  id: string | null = null;
  error: AppError | null = null;

  constructor(readonly index: number) {}

  get pending(): boolean {
    return this.status === null;
  }

  fail(error: AppError): void {
    this.status = 'failed';
    this.id = null;
    this.error = error;
  }

  succeed(status: Exclude<BulkStatus, 'failed'>, id: string): void {
    this.status = status;
    this.id = id;
  }

  toResponse(): BulkItemResultResponse {
    const { error } = this;
    return {
      index: this.index,
      status: this.status ?? 'failed',
      id: this.id,
      error: error && {
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
      },
    };
  }
}

/**
 * An item as its single-item endpoint's ValidationPipe would take it: the same class, the same rules
 * (unknown fields refused), the same 400 VALIDATION_ERROR naming each field.
 */
export function validateItem<T extends object>(model: Type<T>, item: unknown): T {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new ValidationError('An item must be a JSON object');
  }
  const instance = plainToInstance(model, item);
  // Synchronously: every rule of the DTOs is synchronous, and a thousand items' promises cost more than the rules.
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw toValidationError(errors);
  return instance;
}

/** An AppError fails its item; anything else (a bug, the database gone) fails the request. */
export function failItemOn(outcome: BulkItemOutcome, error: unknown): void {
  if (!(error instanceof AppError)) throw error;
  outcome.fail(error);
}

/**
 * Documents a bulk route: its body (`model`, with an example request) and its 200 answer
 * `{success, data: [BulkItemResult], meta: BulkMeta}` with an example response. The route itself carries
 * `@HttpCode(HttpStatus.OK)`: the swagger plugin reads it there, and would otherwise document a 201 too.
 */
export function ApiBulk(model: Type<unknown>, example: { request: object; response: object }) {
  return applyDecorators(
    ApiExtraModels(BulkItemResultResponse, BulkMetaResponse),
    ApiBody({ type: model, examples: { request: { value: example.request } } }),
    ApiResponse({
      status: HttpStatus.OK,
      description: 'One result per item, in item order',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['success', 'data', 'meta'],
            properties: {
              success: { type: 'boolean', enum: [true] },
              data: { type: 'array', items: { $ref: getSchemaPath(BulkItemResultResponse) } },
              meta: { $ref: getSchemaPath(BulkMetaResponse) },
            },
          },
          example: example.response,
        },
      },
    }),
  );
}

/** A valid upsert item's change, before it is written: `before` is null for a resource the item creates. */
export interface PlannedChange<T> {
  outcome: BulkItemOutcome;
  before: T | null;
  after: T;
}

/**
 * How a feature writes its changes: all at once (updates, then creates), or one. An update whose values equal
 * the stored ones writes nothing (the repository's no-op rule): `many` answers the ids of the updates it wrote,
 * `one` whether it wrote.
 */
export interface ChangeWriter<T> {
  many(updates: T[], creates: T[]): Promise<string[]>;
  one(change: PlannedChange<T>): Promise<boolean>;
}

/**
 * Writes the changes set-based, in a savepoint; when the database refuses that (an AppError: a unique index),
 * writes them one by one in item order, each in a savepoint, failing only the items it refuses. Marks the
 * items created, updated or (an update that changed nothing) unchanged, and answers those written, in item order.
 */
export async function writeChanges<T extends { id: string }>(
  database: Database,
  manager: EntityManager,
  planned: PlannedChange<T>[],
  writer: ChangeWriter<T>,
): Promise<PlannedChange<T>[]> {
  const updates = planned.filter((change) => change.before !== null).map((change) => change.after);
  const creates = planned.filter((change) => change.before === null).map((change) => change.after);
  const unchanged = new Set<PlannedChange<T>>();
  try {
    const updated = new Set(await database.savepoint(manager, () => writer.many(updates, creates)));
    for (const change of planned) if (change.before !== null && !updated.has(change.after.id)) unchanged.add(change);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    for (const change of planned) {
      await database
        .savepoint(manager, () => writer.one(change))
        .then(
          (wrote) => (wrote ? undefined : unchanged.add(change)),
          (failure: unknown) => failItemOn(change.outcome, failure),
        );
    }
  }
  for (const { outcome, after } of unchanged) outcome.succeed('unchanged', after.id);
  const written = planned.filter((change) => change.outcome.pending);
  for (const { outcome, before, after } of written) outcome.succeed(before ? 'updated' : 'created', after.id);
  return written;
}
