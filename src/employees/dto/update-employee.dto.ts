import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsIsoDateTime } from '../../validation/iso-date-time';
import { IsOptionalNotNull } from '../../validation/optional-not-null';

/** A partial update: only supplied fields change; null clears a nullable field and is refused elsewhere. */
export class UpdateEmployeeDto {
  @ApiPropertyOptional({ maxLength: 64 })
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  personnelNumber?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  firstName?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  lastName?: string;

  @ApiPropertyOptional({ format: 'email', maxLength: 254 })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(254)
  @IsEmail()
  businessEmail?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  title?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  gender?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  departmentId?: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @IsOptional()
  @IsIsoDateTime()
  hiredAt?: string | null;

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
