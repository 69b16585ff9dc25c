import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQuery } from '../../pagination/pagination';
import { IsIsoDateTime } from '../../validation/iso-date-time';
import { toBooleanIfLiteral } from '../../validation/query-transforms';

export class ListEmployeesQuery extends PaginationQuery {
  @ApiPropertyOptional({
    description:
      'Case-insensitive substring of firstName, lastName, "firstName lastName", businessEmail or personnelNumber; % _ \\ match literally',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ description: 'Exact match', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  departmentId?: string;

  @ApiPropertyOptional({
    type: String,
    enum: ['true', 'false'],
    description: 'true: leftAt is null; false: leftAt is set',
  })
  @IsOptional()
  @Transform(({ value }) => toBooleanIfLiteral(value))
  @IsBoolean({ message: "isActive must be 'true' or 'false'" })
  isActive?: boolean;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Only employees changed at or after this time (updatedAt ≥ it), ordered by updatedAt, then id',
  })
  @IsOptional()
  @IsIsoDateTime()
  updatedSince?: string;
}
