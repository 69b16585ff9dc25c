import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PaginationQuery } from '../../pagination/pagination';
import { toBooleanIfLiteral, toIntegerIfDigits } from '../../validation/query-transforms';

// Scores are PostgreSQL integers: a bound outside them could never match and would not bind.
const INT4_MIN = -2147483648;
const INT4_MAX = 2147483647;

export class ListSkillEmployeesQuery extends PaginationQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: INT4_MIN,
    maximum: INT4_MAX,
    example: 3,
    description: 'Only employees whose latest score on the skill is at least this (never-rated employees drop out)',
  })
  @IsOptional()
  @Transform(({ value }) => toIntegerIfDigits(value))
  @IsInt()
  @Min(INT4_MIN)
  @Max(INT4_MAX)
  minScore?: number;

  @ApiPropertyOptional({
    type: String,
    enum: ['true', 'false'],
    description: 'true: only active employees (leftAt is null); false: only deactivated ones; absent: both',
  })
  @IsOptional()
  @Transform(({ value }) => toBooleanIfLiteral(value))
  @IsBoolean({ message: "isActive must be 'true' or 'false'" })
  isActive?: boolean;
}
