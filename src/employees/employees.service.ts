import { Injectable } from '@nestjs/common';
import { ListCursors, ListIdentity } from '../common/cursor';
import { NotFoundError } from '../common/errors';
import { toDateOrNull } from '../common/iso-date-time';
import { Page } from '../common/pagination';
import { newId } from '../common/uuid';
import { Database } from '../database/database';
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
    private readonly cursors: ListCursors,
  ) {}

  async list(organisationId: string, query: ListEmployeesQuery): Promise<Page<EmployeeResponse>> {
    const list: ListIdentity = { name: 'employees', organisationId };
    const read = await this.employees.findPage(organisationId, query, this.cursors.window(list, query));
    return this.cursors.page(list, query, read, toEmployeeResponse);
  }

  async get(organisationId: string, id: string): Promise<EmployeeDetailResponse> {
    const detail = await this.employees.findDetail(organisationId, id);
    if (!detail) throw new NotFoundError('Employee');
    return toEmployeeDetailResponse(detail);
  }

  async create(organisationId: string, input: CreateEmployeeDto): Promise<EmployeeResponse> {
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
    });
  }

  /**
   * Emits employee.updated, then employee.deactivated when the change sets leftAt on an active employee. A PATCH
   * that sends the current values changes nothing: updatedAt stays and nothing is emitted.
   */
  async update(organisationId: string, id: string, input: UpdateEmployeeDto): Promise<EmployeeResponse> {
    return this.database.transaction(async (manager) => {
      const employee = await this.employees.findForUpdate(organisationId, id, manager);
      const wasActive = employee.leftAt === null;
      const now = new Date();
      applyChanges(employee, input);
      if (!(await this.employees.update(organisationId, employee, now, manager))) return toEmployeeResponse(employee);
      employee.updatedAt = now;
      const response = toEmployeeResponse(employee);
      await this.events.publish(manager, organisationId, 'employee.updated', response, now);
      if (wasActive && employee.leftAt !== null) {
        await this.events.publish(manager, organisationId, 'employee.deactivated', response, now);
      }
      return response;
    });
  }

  /** Soft delete; deleting an already deactivated employee changes nothing and emits nothing. */
  async deactivate(organisationId: string, id: string): Promise<DeactivatedEmployeeResponse> {
    return this.database.transaction(async (manager) => {
      const employee = await this.employees.findForUpdate(organisationId, id, manager);
      if (employee.leftAt !== null) return { id, leftAt: employee.leftAt.toISOString() };
      const now = new Date();
      employee.leftAt = now;
      employee.updatedAt = now;
      await this.employees.deactivate(organisationId, id, now, manager);
      await this.events.publish(manager, organisationId, 'employee.deactivated', toEmployeeResponse(employee), now);
      return { id, leftAt: now.toISOString() };
    });
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
