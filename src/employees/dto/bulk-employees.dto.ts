import { ApiProperty, ApiSchema, OmitType } from '@nestjs/swagger';
import { BulkItems } from '../../bulk/bulk';
import { UpdateEmployeeDto } from './update-employee.dto';

/**
 * The schema of an item, for the document only: each item is validated as a CreateEmployeeDto when its
 * personnelNumber is unknown, else as an UpdateEmployeeDto, so only personnelNumber is always required.
 */
@ApiSchema({
  name: 'BulkEmployeeItem',
  description:
    'An unknown personnelNumber: a POST /employees body (firstName, lastName, businessEmail required). ' +
    'A known one: the fields to change, as PATCH /employees/{id}',
})
export class BulkEmployeeItemSchema extends OmitType(UpdateEmployeeDto, ['personnelNumber']) {
  @ApiProperty({ maxLength: 64 })
  personnelNumber: string;
}

/** Body of POST /employees/bulk. */
export class BulkEmployeesDto {
  @BulkItems(BulkEmployeeItemSchema, 'Matched by personnelNumber in the organisation')
  items: unknown[];
}
