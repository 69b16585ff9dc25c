import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { toIntegerIfDigits } from '../validation/query-transforms';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** The `limit` of every list, paged by number or by cursor: a whole number from 1 to MAX_PAGE_SIZE. */
export const PageLimit = () =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
    Transform(({ value }) => toIntegerIfDigits(value)),
    IsInt(),
    Min(1),
    Max(MAX_PAGE_SIZE),
  );
// A cursor holds a few order-key values and an HMAC: well under this.
const MAX_CURSOR_LENGTH = 1024;

/**
 * `page` or `cursor`, and `limit`, of every paginated list; strings that are not whole numbers fail validation.
 * `page` has no default here, so that a cursor sent with one can be told apart (1 is applied when paging by page).
 */
export class PaginationQuery {
  // At most 2^53 − 1: a larger number is not exact in JavaScript and its offset overflows PostgreSQL's bigint.
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 })
  @IsOptional()
  @Transform(({ value }) => toIntegerIfDigits(value))
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  page?: number;

  @ApiPropertyOptional({
    maxLength: MAX_CURSOR_LENGTH,
    description:
      'In place of page: the meta.nextCursor of an earlier page of this list with the same filters (limit may change)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;

  @PageLimit()
  limit: number = DEFAULT_PAGE_SIZE;

  get offset(): number {
    return ((this.page ?? 1) - 1) * this.limit;
  }
}

const NEXT_CURSOR = {
  nullable: true,
  type: String,
  description: 'Pass as cursor to read the rows after this page; null when no row follows it',
};

/** The fields of a list read by page, which a list read by cursor leaves out: counting is what it saves. */
export interface PageFields {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  hasNextPage: boolean;
  hasPrevPage: boolean;
}

/**
 * A page-mode field: present in page mode, left out in cursor mode. Its `default` is what a generator that
 * honours one (openapi-typescript's defaults) needs to type the field as present, so that page-mode code
 * written before cursors compiles unchanged; it holds no meaning beyond that, and validators ignore it.
 */
const pageModeOnly = (description: string, type: 'integer' | 'boolean', fallback: number | boolean) =>
  ApiProperty({
    type,
    required: false,
    default: fallback,
    description: `${description}. Page mode only: a list read by cursor leaves it out`,
  });

/**
 * The meta of every paginated list, in one schema for both modes (a oneOf of the two would match a
 * page-mode meta twice, which validators refuse). Page mode: every field. Cursor mode: limit,
 * hasNextPage and nextCursor; nothing is counted.
 */
export class ListMeta {
  @pageModeOnly('The rows of the list, all pages', 'integer', 0) total?: number;
  @pageModeOnly('The page read', 'integer', 1) page?: number;
  @ApiProperty({ type: 'integer' }) limit: number;
  @pageModeOnly('ceil(total / limit)', 'integer', 0) totalPages?: number;
  @ApiProperty() hasNextPage: boolean;
  @pageModeOnly('page > 1', 'boolean', false) hasPrevPage?: boolean;
  @ApiProperty(NEXT_CURSOR) nextCursor: string | null;
}

export function buildPaginationMeta(total: number, page: number, limit: number): PageFields {
  const totalPages = Math.ceil(total / limit);
  return { total, page, limit, totalPages, hasNextPage: page < totalPages, hasPrevPage: page > 1 };
}

/** The meta of a list paged by cursor rather than by page number (GET /events). */
export class CursorPaginationMeta {
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty({ description: 'More items were ready when this page was read' }) hasMore: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The cursor (`after`) of the next page; null when this page is empty (keep your cursor)',
  })
  nextAfter: string | null;
}

/** What a service returns for a paginated list; the envelope interceptor lifts `meta` beside `data`. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly meta: PageFields | ListMeta | CursorPaginationMeta,
  ) {}
}
