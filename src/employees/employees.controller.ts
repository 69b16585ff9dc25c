import { Body, Controller, Delete, Get, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { ApiEnvelope, ApiErrors } from '../common/openapi/api-envelope.decorators';
import { Page } from '../common/pagination';
import { ParseIdPipe } from '../common/uuid';
import { CreateEmployeeDto } from './dto/create-employee.dto';
import { DeactivatedEmployeeResponse, EmployeeDetailResponse, EmployeeResponse } from './dto/employee.response';
import { ListEmployeesQuery } from './dto/list-employees.query';
import { UpdateEmployeeDto } from './dto/update-employee.dto';
import { EmployeesService } from './employees.service';

const EmployeeId = () => Param('id', new ParseIdPipe('Employee'));

@ApiTags('Employees')
@RequiresScope('read', 'write')
@Controller('employees')
export class EmployeesController {
  constructor(private readonly employees: EmployeesService) {}

  @Get()
  @ApiOperation({ summary: 'List employees, oldest first' })
  @ApiEnvelope(EmployeeResponse, { paginated: true })
  @ApiErrors(400)
  list(@OrgId() organisationId: string, @Query() query: ListEmployeesQuery): Promise<Page<EmployeeResponse>> {
    return this.employees.list(organisationId, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create an employee (emits employee.created)' })
  @ApiEnvelope(EmployeeResponse, { status: HttpStatus.CREATED })
  @ApiErrors(400, 409)
  create(@OrgId() organisationId: string, @Body() body: CreateEmployeeDto): Promise<EmployeeResponse> {
    return this.employees.create(organisationId, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'An employee with its skills and their latest ratings' })
  @ApiEnvelope(EmployeeDetailResponse)
  @ApiErrors(404)
  get(@OrgId() organisationId: string, @EmployeeId() id: string): Promise<EmployeeDetailResponse> {
    return this.employees.get(organisationId, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      'Change an employee (emits employee.updated, then employee.deactivated when it sets leftAt on an active one)',
  })
  @ApiEnvelope(EmployeeResponse)
  @ApiErrors(400, 404, 409)
  update(
    @OrgId() organisationId: string,
    @EmployeeId() id: string,
    @Body() body: UpdateEmployeeDto,
  ): Promise<EmployeeResponse> {
    return this.employees.update(organisationId, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deactivate an employee (soft delete; idempotent; emits employee.deactivated once)' })
  @ApiEnvelope(DeactivatedEmployeeResponse)
  @ApiErrors(404)
  deactivate(@OrgId() organisationId: string, @EmployeeId() id: string): Promise<DeactivatedEmployeeResponse> {
    return this.employees.deactivate(organisationId, id);
  }
}
