import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQuery } from '../../pagination/pagination';
import { IsIsoDateTime } from '../../validation/iso-date-time';

export class ListSkillsQuery extends PaginationQuery {
  @ApiPropertyOptional({
    description: 'Case-insensitive substring of the name or of an alias (not a hidden one); % _ \\ match literally',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Only skills changed at or after this time (updatedAt ≥ it), ordered by updatedAt, then id',
  })
  @IsOptional()
  @IsIsoDateTime()
  updatedSince?: string;

  @ApiPropertyOptional({
    description: 'Only skills in this skill group or in any group below it (an unknown group is 404)',
  })
  @IsOptional()
  @IsString()
  groupId?: string;
}
