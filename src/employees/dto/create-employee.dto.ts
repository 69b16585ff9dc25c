import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsIsoDateTime } from '../../validation/iso-date-time';
import { IsOptionalNotNull } from '../../validation/optional-not-null';

export class CreateEmployeeDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  personnelNumber: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  firstName: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  lastName: string;

  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsString()
  @MaxLength(254)
  @IsEmail()
  businessEmail: string;

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

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2026-01-31T09:00:00Z' })
  @IsOptional()
  @IsIsoDateTime()
  hiredAt?: string | null;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  isHRTeamMember?: boolean;
}
