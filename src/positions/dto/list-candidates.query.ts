import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';
import { PaginationQuery } from '../../pagination/pagination';
import { toBooleanIfLiteral } from '../../validation/query-transforms';

export class ListCandidatesQuery extends PaginationQuery {
  @ApiPropertyOptional({
    type: String,
    enum: ['true', 'false'],
    default: 'true',
    description: 'true: only active employees (leftAt is null); false: only deactivated ones',
  })
  @Transform(({ value }) => toBooleanIfLiteral(value))
  @IsBoolean({ message: "isActive must be 'true' or 'false'" })
  isActive: boolean = true;
}
