import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import { toDateOrNull } from '../common/iso-date-time';
import { Page } from '../common/pagination';
import { newId } from '../common/uuid';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { changesBetween } from '../events/changes';
import { DomainEvents } from '../events/domain-events';
import { CreateEmployeeDto } from './dto/create-employee.dto';
import {
  DeactivatedEmployeeResponse,
  EmployeeDetailResponse,
  EmployeeResponse,
  toEmployeeDetailResponse,
  toEmployeeResponse,
} from './dto/employee.response';
import { ListEmployeesQuery } from './dto/list-employees.query';
import { UpdateEmployeeDto } from './dto/update-employee.dto';
import { EmployeesRepository } from './employees.repository';
import { Employee } from './entities/employee.entity';

@Injectable()
export class EmployeesService {
  constructor(
    private readonly database: Database,
    private readonly employees: EmployeesRepository,
    private readonly events: DomainEvents,
  ) {}

  async list(organisationId: string, query: ListEmployeesQuery): Promise<Page<EmployeeResponse>> {
    const [employees, total] = await this.employees.findPage(organisationId, query);
    return Page.of(employees.map(toEmployeeResponse), total, query);
  }

  async get(organisationId: string, id: string): Promise<EmployeeDetailResponse> {
    const detail = await this.employees.findDetail(organisationId, id);
    if (!detail) throw new NotFoundError('Employee');
    return toEmployeeDetailResponse(detail);
  }

  async create(organisationId: string, input: CreateEmployeeDto, write: WriteContext): Promise<EmployeeResponse> {
    const now = new Date();
    const employee: Employee = {
      id: newId(),
      organisationId,
      personnelNumber: input.personnelNumber,
      firstName: input.firstName,
      lastName: input.lastName,
      businessEmail: input.businessEmail,
      title: input.title ?? null,
      gender: input.gender ?? null,
      departmentId: input.departmentId ?? null,
      hiredAt: toDateOrNull(input.hiredAt) ?? null,
      leftAt: null,
      isHRTeamMember: input.isHRTeamMember ?? false,
      createdAt: now,
      updatedAt: now,
    };
    return this.database.transaction(async (manager) => {
      await this.employees.insert(organisationId, employee, manager);
      const response = toEmployeeResponse(employee);
      await this.events.publish(manager, organisationId, 'employee.created', response, now);
      return response;
    }, write);
  }

  /**
   * Emits employee.updated with what the change altered (the row is locked and read first, so its previous
   * values cost no extra round trip), then employee.deactivated when the change sets leftAt on an active one.
   */
  async update(
    organisationId: string,
    id: string,
    input: UpdateEmployeeDto,
    write: WriteContext,
  ): Promise<EmployeeResponse> {
    return this.database.transaction(async (manager) => {
      const employee = await this.employees.findForUpdate(organisationId, id, manager);
      const previous = toEmployeeResponse(employee);
      const wasActive = employee.leftAt === null;
      const now = new Date();
      applyChanges(employee, input);
      employee.updatedAt = now;
      await this.employees.update(organisationId, employee, manager);
      const response = toEmployeeResponse(employee);
      const changes = changesBetween(previous, response);
      await this.events.publish(manager, organisationId, 'employee.updated', response, now, changes);
      if (wasActive && employee.leftAt !== null) {
        await this.events.publish(manager, organisationId, 'employee.deactivated', response, now);
      }
      return response;
    }, write);
  }

  /** Soft delete; deleting an already deactivated employee changes nothing and emits nothing. */
  async deactivate(organisationId: string, id: string, write: WriteContext): Promise<DeactivatedEmployeeResponse> {
    return this.database.transaction(async (manager) => {
      const employee = await this.employees.findForUpdate(organisationId, id, manager);
      if (employee.leftAt !== null) return { id, leftAt: employee.leftAt.toISOString() };
      const now = new Date();
      employee.leftAt = now;
      employee.updatedAt = now;
      await this.employees.deactivate(organisationId, id, now, manager);
      await this.events.publish(manager, organisationId, 'employee.deactivated', toEmployeeResponse(employee), now);
      return { id, leftAt: now.toISOString() };
    }, write);
  }
}

/** Copies the supplied fields of a PATCH onto the employee; absent (undefined) fields keep their value. */
function applyChanges(employee: Employee, input: UpdateEmployeeDto): void {
  const { hiredAt, leftAt, ...plainFields } = input;
  for (const [field, value] of Object.entries(plainFields)) {
    if (value !== undefined) Object.assign(employee, { [field]: value });
  }
  if (hiredAt !== undefined) employee.hiredAt = toDateOrNull(hiredAt) ?? null;
  if (leftAt !== undefined) employee.leftAt = toDateOrNull(leftAt) ?? null;
}
