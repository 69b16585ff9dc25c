import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BulkResult, failItemOn, PlannedChange } from '../bulk/bulk';
import { stringField, upsertItems, UpsertRules } from '../bulk/bulk-upsert';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { ConflictError, ValidationError } from '../errors/errors';
import { changesBetween } from '../events/changes';
import { DomainEvents, PublishedEvent } from '../events/domain-events';
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
    private readonly service: EmployeesService,
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
        this.checkVersions(organisationId, items, planned, manager),
    };
  }

  upsert(organisationId: string, items: unknown[], write: WriteContext): Promise<BulkResult> {
    return upsertItems(this.database, this.events, organisationId, items, this.rules, write);
  }

  /**
   * An update item's `ifMatch` or `baseVersion`, checked as PATCH checks the headers, under the lock the bulk
   * upsert holds on its employee: the item fails with PRECONDITION_FAILED or CONFLICT, the others go on.
   */
  private async checkVersions(
    organisationId: string,
    items: unknown[],
    planned: PlannedChange<Employee>[],
    manager: EntityManager,
  ): Promise<void> {
    for (const change of planned) {
      const { before, after, outcome } = change;
      const { ifMatch, baseVersion } = items[outcome.index] as Partial<BulkEmployeeUpdateDto>;
      if (!before || (ifMatch === undefined && baseVersion === undefined)) continue;
      try {
        if (ifMatch !== undefined && baseVersion !== undefined) {
          throw ValidationError.forField('baseVersion', 'An item names ifMatch or baseVersion, not both');
        }
        const changes = Object.keys(changesBetween(toEmployeeResponse(before), toEmployeeResponse(after)));
        const preconditions = ifMatch !== undefined ? { ifMatch: [ifMatch] } : { baseVersion };
        // An item already in place writes nothing: the no-op rule makes it unchanged.
        await this.service.checkVersion(organisationId, before, preconditions, manager, changes);
      } catch (error) {
        failItemOn(outcome, error);
      }
    }
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
