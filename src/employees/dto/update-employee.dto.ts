import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { IsIsoDateTime } from '../../validation/iso-date-time';
import { IsOptionalNotNull } from '../../validation/optional-not-null';
import { CreateEmployeeDto } from './create-employee.dto';

/**
 * A partial update: only supplied fields change, each by the rules of POST /employees; null clears a nullable
 * field and is refused elsewhere (skipNullProperties: false validates a null where the POST requires a value).
 * isHRTeamMember is declared again only because a PATCH has no default for it.
 */
export class UpdateEmployeeDto extends PartialType(OmitType(CreateEmployeeDto, ['isHRTeamMember'] as const), {
  skipNullProperties: false,
}) {
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'A time deactivates the employee; null reactivates it',
  })
  @IsOptional()
  @IsIsoDateTime()
  leftAt?: string | null;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  isHRTeamMember?: boolean;
}
