import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { validateItem } from '../../bulk/bulk';
import { ParseIdPipe } from '../../database/uuid';
import { ListEmployeesQuery } from '../../employees/dto/list-employees.query';
import { EmployeesService } from '../../employees/employees.service';
import { PrivacyService } from '../../privacy/privacy.service';
import { RatingsRepository } from '../../ratings/ratings.repository';
import { ConsoleController } from '../http/console-controller.decorator';
import { requireAdmin } from '../http/console-errors';
import { OpenToViewers } from '../http/console-metadata';
import { ConsoleOrgId, ConsoleRequest, ConsoleViewer, Form, FormFields, Viewer } from '../http/console-request';
import { consoleWrite } from '../http/console-write';
import { FlashMessages } from '../http/flash';
import { sendPage } from '../http/page-response';
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
    private readonly flash: FlashMessages,
  ) {}

  @Get()
  async list(
    @ConsoleOrgId() organisationId: string,
    @Viewer() viewer: ConsoleViewer,
    @Query('search') searchParameter: unknown,
    @Query('status') statusParameter: unknown,
    @Query('page') page: unknown,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
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
    const flash = this.flash.take(request, response);
    sendPage(
      response,
      employeesPage(
        viewer,
        { employees: employees.items, meta: pageFieldsOf(employees), skillCounts, search, status },
        flash,
      ),
    );
  }

  @Get(':id')
  async employee(
    @ConsoleOrgId() organisationId: string,
    @EmployeeId() id: string,
    @Viewer() viewer: ConsoleViewer,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
    const employee = await this.employees.get(organisationId, id);
    const histories = await this.ratings.historyOfEmployee(organisationId, id, HISTORY_PER_SKILL);
    sendPage(response, employeePage(viewer, employee, histories, this.flash.take(request, response)));
  }

  /**
   * "Export personal data": the `data` of GET /employees/{id}/personal-data, from the same service, as a JSON
   * file. A POST, though it changes nothing the API shows: it is recorded in the activity log, so it is sent only
   * from the console's own page (the guard's Origin check), never by a link another site opens. Viewers may.
   */
  @OpenToViewers()
  @Post(':id/personal-data')
  async exportPersonalData(
    @ConsoleOrgId() organisationId: string,
    @EmployeeId() id: string,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
    const data = await this.privacy.exportPersonalData(organisationId, id, consoleWrite(request));
    const body = Buffer.from(JSON.stringify(data, null, 2), 'utf8');
    response.status(200);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="personal-data-${id}.json"`);
    response.setHeader('Content-Length', body.length);
    response.setHeader('Cache-Control', 'no-store');
    response.end(body);
  }

  @Get(':id/erase')
  async confirmErase(
    @ConsoleOrgId() organisationId: string,
    @EmployeeId() id: string,
    @Viewer() viewer: ConsoleViewer,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
    requireAdmin(viewer);
    const employee = await this.employees.get(organisationId, id);
    sendPage(response, eraseEmployeePage(viewer, employee, this.flash.take(request, response)));
  }

  /** "Erase": only when the personnel number typed is the employee's (PrivacyService.erase checks it). */
  @Post(':id/erase')
  async erase(
    @ConsoleOrgId() organisationId: string,
    @EmployeeId() id: string,
    @Form() form: FormFields,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
    await this.flash.changeThenSeeOther(
      request,
      response,
      EMPLOYEES,
      async () => {
        await this.privacy.erase(organisationId, id, consoleWrite(request), {
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
