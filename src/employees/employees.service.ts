import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { NotFoundError } from '../errors/errors';
import { changesBetween } from '../events/changes';
import { DomainEvents } from '../events/domain-events';
import { ListCursors, ListIdentity } from '../pagination/cursor';
import { Page } from '../pagination/pagination';
import { Preconditions } from '../versions/preconditions';
import { RecordVersionCheck, ResourceVersions, VersionedKind } from '../versions/resource-versions';
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
import { applyChanges, EMPLOYEE_IMPLIED_CHANGES, newEmployee, updateEvents } from './employee-changes';
import { EmployeesRepository } from './employees.repository';
import { Employee } from './entities/employee.entity';

/** Employees as If-Match and Base-Version check their writes: employee.deactivated changed leftAt. */
const EMPLOYEE_VERSIONS: VersionedKind<Employee> = {
  resource: 'Employee',
  representation: toEmployeeResponse,
  impliedBy: EMPLOYEE_IMPLIED_CHANGES,
};

@Injectable()
export class EmployeesService {
  /**
   * If-Match, Base-Version and REQUIRE_IF_MATCH for a write of a locked employee: `changes`, a PATCH's changed
   * fields; none for a write of the whole employee (DELETE, erase).
   */
  readonly checkVersion: RecordVersionCheck<Employee>;

  constructor(
    private readonly database: Database,
    private readonly employees: EmployeesRepository,
    private readonly events: DomainEvents,
    private readonly cursors: ListCursors,
    versions: ResourceVersions,
  ) {
    this.checkVersion = versions.checkerFor(EMPLOYEE_VERSIONS);
  }

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

  async create(organisationId: string, input: CreateEmployeeDto, write: WriteContext): Promise<EmployeeResponse> {
    const now = new Date();
    const employee = newEmployee(organisationId, input, now);
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
   * A PATCH that sends the current values changes nothing: updatedAt and version stay and nothing is emitted.
   * If-Match and Base-Version are checked under the row's lock (ResourceVersions): a refusal writes nothing.
   */
  async update(
    organisationId: string,
    id: string,
    input: UpdateEmployeeDto,
    write: WriteContext,
    preconditions: Preconditions = {},
  ): Promise<EmployeeResponse> {
    return this.database.transaction(async (manager) => {
      const { employee, readWithLock } =
        preconditions.baseVersion === undefined
          ? { employee: await this.employees.findForUpdate(organisationId, id, manager), readWithLock: undefined }
          : await this.employees.findForMerge(organisationId, id, preconditions.baseVersion, manager);
      const changed = { ...employee };
      const now = new Date();
      applyChanges(changed, input);
      const current = toEmployeeResponse(employee);
      const changes = Object.keys(changesBetween(current, toEmployeeResponse(changed)));
      const verdict = await this.checkVersion(organisationId, employee, preconditions, manager, changes, readWithLock);
      if (verdict === 'in-place') {
        return current;
      }
      if (!(await this.employees.update(organisationId, changed, now, manager))) return toEmployeeResponse(employee);
      changed.updatedAt = now;
      // The trigger moved the locked row's version by one in the UPDATE.
      changed.version = employee.version + 1;
      for (const event of updateEvents(employee, changed, now)) {
        await this.events.publish(manager, organisationId, event.name, event.data, now, event.changes);
      }
      return toEmployeeResponse(changed);
    }, write);
  }

  /** Soft delete; deleting an already deactivated employee changes nothing and emits nothing. */
  async deactivate(
    organisationId: string,
    id: string,
    write: WriteContext,
    preconditions: Preconditions = {},
  ): Promise<DeactivatedEmployeeResponse> {
    return this.database.transaction(async (manager) => {
      const employee = await this.employees.findForUpdate(organisationId, id, manager);
      await this.checkVersion(organisationId, employee, preconditions, manager);
      if (employee.leftAt !== null) return { id, leftAt: employee.leftAt.toISOString() };
      const now = new Date();
      employee.leftAt = now;
      employee.updatedAt = now;
      employee.version += 1;
      await this.employees.deactivate(organisationId, id, now, manager);
      await this.events.publish(manager, organisationId, 'employee.deactivated', toEmployeeResponse(employee), now);
      return { id, leftAt: now.toISOString() };
    }, write);
  }
}
