import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toIntegerIfDigits } from './query-transforms';

export const MAX_PAGE_SIZE = 100;

/** `page` and `limit` of every paginated list; strings that are not whole numbers fail validation. */
export class PaginationQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @Transform(({ value }) => toIntegerIfDigits(value))
  @IsInt()
  @Min(1)
  page: number = 1;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 })
  @Transform(({ value }) => toIntegerIfDigits(value))
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = 20;

  get offset(): number {
    return (this.page - 1) * this.limit;
  }
}

export class PaginationMeta {
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() limit: number;
  @ApiProperty() totalPages: number;
  @ApiProperty() hasNextPage: boolean;
  @ApiProperty() hasPrevPage: boolean;
}

export function buildPaginationMeta(total: number, page: number, limit: number): PaginationMeta {
  const totalPages = Math.ceil(total / limit);
  return { total, page, limit, totalPages, hasNextPage: page < totalPages, hasPrevPage: page > 1 };
}

/** What a service returns for a paginated list; the envelope interceptor lifts `meta` beside `data`. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly meta: PaginationMeta,
  ) {}

  static of<T>(items: T[], total: number, query: PaginationQuery): Page<T> {
    return new Page(items, buildPaginationMeta(total, query.page, query.limit));
  }
}
