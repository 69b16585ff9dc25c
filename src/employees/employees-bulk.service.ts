import { Injectable } from '@nestjs/common';
import { BulkResult, PlannedChange } from '../bulk/bulk';
import { stringField, upsertItems, UpsertRules } from '../bulk/bulk-upsert';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { ConflictError } from '../errors/errors';
import { changesBetween } from '../events/changes';
import { DomainEvents, PublishedEvent } from '../events/domain-events';
import { checkItemVersions } from '../versions/item-versions';
import { BulkEmployeeUpdateDto } from './dto/bulk-employees.dto';
import { CreateEmployeeDto } from './dto/create-employee.dto';
import { toEmployeeResponse } from './dto/employee.response';
import { applyChanges, newEmployee, updateEvents } from './employee-changes';
import { EMPLOYEE_UNIQUE_MESSAGES, EmployeesRepository } from './employees.repository';
import { EmployeesService } from './employees.service';
import { Employee } from './entities/employee.entity';

/**
 * POST /employees/bulk: each item is a POST or a PATCH, matched by personnelNumber, checked by the same DTOs
 * and rules as those, written with a few set-based statements in one transaction (see upsertItems).
 */
@Injectable()
export class EmployeesBulkService {
  private readonly rules: UpsertRules<Employee, CreateEmployeeDto, BulkEmployeeUpdateDto, PublishedEvent>;

  constructor(
    private readonly database: Database,
    employees: EmployeesRepository,
    private readonly events: DomainEvents,
    service: EmployeesService,
  ) {
    this.rules = {
      repository: employees,
      lockByKeys: (organisationId, numbers, manager) =>
        employees.lockByPersonnelNumbers(organisationId, numbers, manager),
      keyOf: (item) => stringField(item, 'personnelNumber'),
      storedKeyOf: (employee) => employee.personnelNumber,
      duplicateKeyMessage: 'An earlier item of this request has this personnelNumber',
      create: { body: CreateEmployeeDto, build: newEmployee },
      update: {
        body: BulkEmployeeUpdateDto,
        apply: (employee, { ifMatch: _ifMatch, baseVersion: _baseVersion, ...input }) => applyChanges(employee, input),
      },
      acrossItems: uniqueBusinessEmails,
      eventsOf,
      checkPlanned: (organisationId, items, planned, manager) =>
        checkItemVersions(items, planned, (before, after, preconditions) => {
          const changes = Object.keys(changesBetween(toEmployeeResponse(before), toEmployeeResponse(after)));
          return service.checkVersion(organisationId, before, preconditions, manager, changes);
        }),
    };
  }

  upsert(organisationId: string, items: unknown[], write: WriteContext): Promise<BulkResult> {
    return upsertItems(this.database, this.events, organisationId, items, this.rules, write);
  }
}

/** businessEmail is unique case-insensitively: an employee whose e-mail an earlier item's employee has is 409. */
function uniqueBusinessEmails(): (employee: Employee) => void {
  // The lower-case businessEmail of each employee after the earlier items.
  const owners = new Map<string, string>();
  return (employee) => {
    const email = employee.businessEmail.toLowerCase();
    const owner = owners.get(email);
    if (owner !== undefined && owner !== employee.id) {
      throw new ConflictError(EMPLOYEE_UNIQUE_MESSAGES.employees_business_email_key);
    }
    owners.set(email, employee.id);
  };
}

/**
 * What POST (employee.created) or PATCH (employee.updated with changes, maybe employee.deactivated) emits, for a
 * change that was written: an update moved the locked row's version by one (the trigger, in its UPDATE).
 */
function eventsOf({ before, after }: PlannedChange<Employee>, now: Date): PublishedEvent[] {
  if (!before) return [{ name: 'employee.created', data: toEmployeeResponse(after), occurredAt: now }];
  return updateEvents(before, { ...after, version: before.version + 1 }, now);
}
