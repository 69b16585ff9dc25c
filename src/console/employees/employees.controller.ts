import { Get, Param, Post, Query } from '@nestjs/common';
import { validateItem } from '../../bulk/bulk';
import { ParseIdPipe } from '../../database/uuid';
import { ListEmployeesQuery } from '../../employees/dto/list-employees.query';
import { EmployeesService } from '../../employees/employees.service';
import { PrivacyService } from '../../privacy/privacy.service';
import { RatingsRepository } from '../../ratings/ratings.repository';
import { ConsoleController } from '../http/console-controller.decorator';
import { requireAdmin } from '../http/console-errors';
import { OpenToViewers } from '../http/console-metadata';
import { Change, ConsoleChange, ConsolePage, Page } from '../http/console-request';
import { Html } from '../http/html';
import { changeThenSeeOther, JsonDownload, SeeOther } from '../http/page-answer';
import { pageFieldsOf, pageNumber, queryText } from '../http/query';
import { employeePage, eraseEmployeePage } from './employee.page';
import { EMPLOYEE_STATUSES, EmployeeStatus, employeesPage } from './employees.page';

const EMPLOYEES = '/console/employees';

/** Employees on one page of the Employees page. */
export const EMPLOYEES_PAGE_SIZE = 50;

/** The latest ratings of each skill an employee's page draws; the chart says how many more there are. */
export const HISTORY_PER_SKILL = 100;

const EmployeeId = () => Param('id', new ParseIdPipe('Employee'));

/**
 * The Employees pages: the list (searchable, 50 a page), an employee with their skills and each skill's rating
 * history, the export of their personal data and, for admins, their erasure. Everything is read and changed
 * through the services and repositories the API's routes use: the same search, the same 404 for another
 * organisation's id, the same erasure; each export and erasure goes into the activity log.
 */
@ConsoleController('employees')
export class EmployeesConsoleController {
  constructor(
    private readonly employees: EmployeesService,
    private readonly ratings: RatingsRepository,
    private readonly privacy: PrivacyService,
  ) {}

  @Get()
  async list(
    @Page() { organisationId, viewer, flash }: ConsolePage,
    @Query('search') searchParameter: unknown,
    @Query('status') statusParameter: unknown,
    @Query('page') page: unknown,
  ): Promise<Html> {
    const search = queryText(searchParameter);
    const status = EMPLOYEE_STATUSES.find((known) => known === statusParameter) ?? 'all';
    // GET /employees's own query, checked by its rules (a search of more than 200 characters is 400).
    const query = validateItem(ListEmployeesQuery, {
      page: pageNumber(page),
      limit: EMPLOYEES_PAGE_SIZE,
      ...(search === '' ? {} : { search }),
      ...isActiveOf(status),
    });
    const employees = await this.employees.list(organisationId, query);
    const skillCounts = await this.ratings.skillCountsOf(
      organisationId,
      employees.items.map((employee) => employee.id),
    );
    return employeesPage(
      viewer,
      { employees: employees.items, meta: pageFieldsOf(employees), skillCounts, search, status },
      flash,
    );
  }

  @Get(':id')
  async employee(@Page() { organisationId, viewer, flash }: ConsolePage, @EmployeeId() id: string): Promise<Html> {
    const employee = await this.employees.get(organisationId, id);
    const histories = await this.ratings.historyOfEmployee(organisationId, id, HISTORY_PER_SKILL);
    return employeePage(viewer, employee, histories, flash);
  }

  /**
   * "Export personal data": the `data` of GET /employees/{id}/personal-data, from the same service, as a JSON
   * file. A POST, though it changes nothing the API shows: it is recorded in the activity log, so it is sent only
   * from the console's own page (the guard's Origin check), never by a link another site opens. Viewers may.
   */
  @OpenToViewers()
  @Post(':id/personal-data')
  async exportPersonalData(
    @Change() { organisationId, write }: ConsoleChange,
    @EmployeeId() id: string,
  ): Promise<JsonDownload> {
    const data = await this.privacy.exportPersonalData(organisationId, id, write);
    return new JsonDownload(`personal-data-${id}.json`, data);
  }

  @Get(':id/erase')
  async confirmErase(@Page() { organisationId, viewer, flash }: ConsolePage, @EmployeeId() id: string): Promise<Html> {
    requireAdmin(viewer);
    const employee = await this.employees.get(organisationId, id);
    return eraseEmployeePage(viewer, employee, flash);
  }

  /** "Erase": only when the personnel number typed is the employee's (PrivacyService.erase checks it). */
  @Post(':id/erase')
  async erase(@Change() { organisationId, form, write }: ConsoleChange, @EmployeeId() id: string): Promise<SeeOther> {
    return changeThenSeeOther(
      EMPLOYEES,
      async () => {
        await this.privacy.erase(organisationId, id, write, {
          personnelNumber: form.text('personnelNumber'),
        });
        return { notice: `Erased employee ${id}: their personal data is gone for good.` };
      },
      `${EMPLOYEES}/${id}/erase`,
    );
  }
}

/** The API's isActive filter for a status the page offers. */
function isActiveOf(status: EmployeeStatus): { isActive?: boolean } {
  if (status === 'active') return { isActive: true };
  if (status === 'deactivated') return { isActive: false };
  return {};
}
