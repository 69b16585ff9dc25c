import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toIntegerIfDigits } from './query-transforms';

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

/** `page` and `limit` of every paginated list; strings that are not whole numbers fail validation. */
export class PaginationQuery {
  // At most 2^53 − 1: a larger number is not exact in JavaScript and its offset overflows PostgreSQL's bigint.
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 })
  @Transform(({ value }) => toIntegerIfDigits(value))
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  page: number = 1;

  @PageLimit()
  limit: number = DEFAULT_PAGE_SIZE;

  get offset(): number {
    return (this.page - 1) * this.limit;
  }
}

export class PaginationMeta {
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ type: 'integer' }) page: number;
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty({ type: 'integer' }) totalPages: number;
  @ApiProperty() hasNextPage: boolean;
  @ApiProperty() hasPrevPage: boolean;
}

export function buildPaginationMeta(total: number, page: number, limit: number): PaginationMeta {
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
    readonly meta: PaginationMeta | CursorPaginationMeta,
  ) {}

  static of<T>(items: T[], total: number, query: PaginationQuery): Page<T> {
    return new Page(items, buildPaginationMeta(total, query.page, query.limit));
  }
}
