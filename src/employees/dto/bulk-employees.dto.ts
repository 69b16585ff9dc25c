import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { BulkItems } from '../../bulk/bulk';
import { IsOptionalNotNull } from '../../validation/optional-not-null';
import { UpdateEmployeeDto } from './update-employee.dto';

/** The largest version an item may name: the column is a PostgreSQL integer. */
const MAX_VERSION = 2_147_483_647;

/**
 * An item that changes a known employee: the PATCH body, and the version it is based on, as If-Match
 * (`ifMatch`, strict) or Base-Version (`baseVersion`, a merge) would name it on PATCH /employees/{id}.
 */
export class BulkEmployeeUpdateDto extends UpdateEmployeeDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'As If-Match: the item fails with PRECONDITION_FAILED unless the employee is at this version',
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(MAX_VERSION)
  ifMatch?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'As Base-Version: the item fails with CONFLICT when a field it changes was changed since this version',
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(MAX_VERSION)
  baseVersion?: number;
}

/**
 * The schema of an item, for the document only: each item is validated as a CreateEmployeeDto when its
 * personnelNumber is unknown, else as an UpdateEmployeeDto, so only personnelNumber is always required.
 */
@ApiSchema({
  name: 'BulkEmployeeItem',
  description:
    'An unknown personnelNumber: a POST /employees body (firstName, lastName, businessEmail required). ' +
    'A known one: the fields to change, as PATCH /employees/{id}, and optionally ifMatch or baseVersion',
})
export class BulkEmployeeItemSchema extends OmitType(BulkEmployeeUpdateDto, ['personnelNumber']) {
  @ApiProperty({ maxLength: 64 })
  personnelNumber: string;
}

/** Body of POST /employees/bulk. */
export class BulkEmployeesDto {
  @BulkItems(BulkEmployeeItemSchema, 'Matched by personnelNumber in the organisation')
  items: unknown[];
}
