import { BulkItems } from '../../common/bulk';
import { CreateEmployeeDto } from './create-employee.dto';

/** Body of POST /employees/bulk. */
export class BulkEmployeesDto {
  @BulkItems(
    CreateEmployeeDto,
    'Matched by personnelNumber: an unknown one is a POST /employees body and creates; a known one changes the ' +
      'fields given, as PATCH /employees/{id} (leftAt included)',
  )
  items: unknown[];
}
