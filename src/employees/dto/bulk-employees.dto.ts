import { ApiProperty, ApiSchema, OmitType } from '@nestjs/swagger';
import { BulkItems } from '../../bulk/bulk';
import { BaseVersionItem, IfMatchItem } from '../../versions/item-versions';
import { UpdateEmployeeDto } from './update-employee.dto';

/**
 * An item that changes a known employee: the PATCH body, and the version it is based on, as If-Match
 * (`ifMatch`, strict) or Base-Version (`baseVersion`, a merge) would name it on PATCH /employees/{id}.
 */
export class BulkEmployeeUpdateDto extends UpdateEmployeeDto {
  @IfMatchItem('employee')
  ifMatch?: number;

  @BaseVersionItem()
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
