import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ConflictError } from '../common/errors';
import { Page } from '../common/pagination';
import { newId } from '../common/uuid';
import { DomainEvents } from '../events/domain-events';
import { CreateEmployeeDto } from './dto/create-employee.dto';
import {
  DeactivatedEmployeeResponse,
  EmployeeDetailResponse,
  EmployeeResponse,
  toEmployeeResponse,
} from './dto/employee.response';
import { toDateOrNull } from '../common/iso-date-time';
import { ListEmployeesQuery } from './dto/list-employees.query';
import { UpdateEmployeeDto } from './dto/update-employee.dto';
import { findEmployeeOrFail } from './employee-lookup';
import { EmployeeDetailReader } from './employee-detail.reader';
import { EmployeesListReader } from './employees-list.reader';
import { Employee } from './entities/employee.entity';
import { violatedUniqueIndex } from '../common/postgres-errors';

const DUPLICATE_MESSAGES: Record<string, string> = {
  employees_personnel_number_key: 'An employee with this personnelNumber already exists',
  employees_business_email_key: 'An employee with this businessEmail already exists',
};

@Injectable()
export class EmployeesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly detailReader: EmployeeDetailReader,
    private readonly listReader: EmployeesListReader,
  ) {}

  list(organisationId: string, query: ListEmployeesQuery): Promise<Page<EmployeeResponse>> {
    return this.listReader.list(organisationId, query);
  }

  get(organisationId: string, id: string): Promise<EmployeeDetailResponse> {
    return this.detailReader.get(organisationId, id);
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
    return this.writeUnique(async (manager) => {
      await manager.insert(Employee, employee);
      const response = toEmployeeResponse(employee);
      await this.events.publish(manager, organisationId, 'employee.created', response, now);
      return response;
    });
  }

  async update(organisationId: string, id: string, input: UpdateEmployeeDto): Promise<EmployeeResponse> {
    return this.writeUnique(async (manager) => {
      const employee = await findEmployeeOrFail(manager, organisationId, id, { forUpdate: true });
      const wasActive = employee.leftAt === null;
      const now = new Date();
      applyChanges(employee, input);
      employee.updatedAt = now;
      await manager.update(Employee, { organisationId, id }, employee);
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
    return this.dataSource.transaction(async (manager) => {
      const employee = await findEmployeeOrFail(manager, organisationId, id, { forUpdate: true });
      if (employee.leftAt !== null) return { id, leftAt: employee.leftAt.toISOString() };
      const now = new Date();
      employee.leftAt = now;
      employee.updatedAt = now;
      await manager.update(Employee, { organisationId, id }, { leftAt: now, updatedAt: now });
      await this.events.publish(manager, organisationId, 'employee.deactivated', toEmployeeResponse(employee), now);
      return { id, leftAt: now.toISOString() };
    });
  }

  /** Runs a write in a transaction; a duplicate personnelNumber or businessEmail becomes 409. */
  private async writeUnique<T>(write: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(write);
    } catch (error) {
      const index = violatedUniqueIndex(error);
      const message = index && DUPLICATE_MESSAGES[index];
      if (message) throw new ConflictError(message);
      throw error;
    }
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
