import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { toBooleanIfLiteral } from '../../validation/query-transforms';

export class DeleteEmployeeSkillQuery {
  @ApiPropertyOptional({
    type: String,
    enum: ['true', 'false'],
    description: "'true' is required when more than 5 ratings exist",
  })
  @IsOptional()
  @Transform(({ value }) => toBooleanIfLiteral(value))
  @IsBoolean({ message: "force must be 'true' or 'false'" })
  force?: boolean;
}
