import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { Write } from '../auth/write.decorator';
import { ApiBulk, BulkResult } from '../bulk/bulk';
import { ParseIdPipe } from '../database/uuid';
import { WriteContext } from '../database/write-context';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import { ApiEnvelope, ApiErrors } from '../openapi/api-envelope.decorators';
import { Page } from '../pagination/pagination';
import { ApiPreconditions, Preconditions, WritePreconditions } from '../versions/preconditions';
import { BulkEmployeesDto } from './dto/bulk-employees.dto';
import { CreateEmployeeDto } from './dto/create-employee.dto';
import { DeactivatedEmployeeResponse, EmployeeDetailResponse, EmployeeResponse } from './dto/employee.response';
import { ListEmployeesQuery } from './dto/list-employees.query';
import { UpdateEmployeeDto } from './dto/update-employee.dto';
import { EmployeesBulkService } from './employees-bulk.service';
import { EmployeesService } from './employees.service';

const EmployeeId = () => Param('id', new ParseIdPipe('Employee'));

@ApiTags('Employees')
@RequiresScope('read', 'write')
@Controller('employees')
export class EmployeesController {
  constructor(
    private readonly employees: EmployeesService,
    private readonly bulk: EmployeesBulkService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List employees, oldest first' })
  @ApiEnvelope(EmployeeResponse, { paginated: true })
  @ApiErrors(400)
  list(@OrgId() organisationId: string, @Query() query: ListEmployeesQuery): Promise<Page<EmployeeResponse>> {
    return this.employees.list(organisationId, query);
  }

  @Idempotent()
  @Post()
  @ApiOperation({ summary: 'Create an employee (emits employee.created)' })
  @ApiEnvelope(EmployeeResponse, { status: HttpStatus.CREATED })
  @ApiErrors(400, 409)
  create(
    @OrgId() organisationId: string,
    @Body() body: CreateEmployeeDto,
    @Write() write: WriteContext,
  ): Promise<EmployeeResponse> {
    return this.employees.create(organisationId, body, write);
  }

  @Idempotent()
  @Post('bulk')
  @ApiOperation({
    summary:
      'Create or change up to 1,000 employees, matched by personnelNumber; one result per item ' +
      '(emits what POST and PATCH would, in item order)',
  })
  @HttpCode(HttpStatus.OK)
  @ApiBulk(BulkEmployeesDto, {
    request: {
      items: [
        { personnelNumber: 'P-001', firstName: 'Grace', lastName: 'Hopper', businessEmail: 'grace@example.com' },
        { personnelNumber: 'P-002', leftAt: '2026-01-31T09:00:00Z' },
        { personnelNumber: 'P-003', firstName: 'Ada', lastName: 'Lovelace', businessEmail: 'GRACE@example.com' },
      ],
    },
    response: {
      success: true,
      data: [
        { index: 0, status: 'created', id: '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e6f', error: null },
        { index: 1, status: 'updated', id: '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e70', error: null },
        {
          index: 2,
          status: 'failed',
          id: null,
          error: { code: 'CONFLICT', message: 'An employee with this businessEmail already exists' },
        },
      ],
      meta: { created: 1, updated: 1, unchanged: 0, failed: 1 },
    },
  })
  upsertMany(
    @OrgId() organisationId: string,
    @Body() body: BulkEmployeesDto,
    @Write() write: WriteContext,
  ): Promise<BulkResult> {
    return this.bulk.upsert(organisationId, body.items, write);
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
  @ApiPreconditions({ merges: true })
  @ApiErrors(400, 404, 409, 412, 428)
  update(
    @OrgId() organisationId: string,
    @EmployeeId() id: string,
    @Body() body: UpdateEmployeeDto,
    @Write() write: WriteContext,
    @WritePreconditions({ merges: true }) preconditions: Preconditions,
  ): Promise<EmployeeResponse> {
    return this.employees.update(organisationId, id, body, write, preconditions);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deactivate an employee (soft delete; idempotent; emits employee.deactivated once)' })
  @ApiEnvelope(DeactivatedEmployeeResponse)
  @ApiPreconditions()
  @ApiErrors(400, 404, 412, 428)
  deactivate(
    @OrgId() organisationId: string,
    @EmployeeId() id: string,
    @Write() write: WriteContext,
    @WritePreconditions() preconditions: Preconditions,
  ): Promise<DeactivatedEmployeeResponse> {
    return this.employees.deactivate(organisationId, id, write, preconditions);
  }
}
