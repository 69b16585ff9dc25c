import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { PaginationQuery } from '../../common/pagination';

export class ListSkillsQuery extends PaginationQuery {
  @ApiPropertyOptional({ description: 'Case-insensitive substring of name; % _ \\ match literally' })
  @IsOptional()
  @IsString()
  search?: string;
}
