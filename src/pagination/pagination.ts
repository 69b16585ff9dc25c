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

/** The meta of a list read by page: the page fields, and the cursor to go on from this page. */
export class PaginationMeta {
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ type: 'integer' }) page: number;
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty({ type: 'integer' }) totalPages: number;
  @ApiProperty() hasNextPage: boolean;
  @ApiProperty() hasPrevPage: boolean;
  @ApiProperty(NEXT_CURSOR) nextCursor: string | null;
}

/** The page fields of a page-mode meta. */
export type PageFields = Omit<PaginationMeta, 'nextCursor'>;

/** The meta of a list read by cursor: nothing is counted. */
export class CursorPageMeta {
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty() hasNextPage: boolean;
  @ApiProperty(NEXT_CURSOR) nextCursor: string | null;
}

export type ListMeta = PaginationMeta | CursorPageMeta;

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
    readonly meta: PageFields | CursorPageMeta | CursorPaginationMeta,
  ) {}
}
