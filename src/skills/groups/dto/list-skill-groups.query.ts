import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQuery } from '../../../pagination/pagination';

export class ListSkillGroupsQuery extends PaginationQuery {
  @ApiPropertyOptional({ description: 'Case-insensitive substring of name; % _ \\ match literally' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({
    description: 'Only the direct children of this group; `root`: only the groups without a parent',
  })
  @IsOptional()
  @IsString()
  parentId?: string;
}
