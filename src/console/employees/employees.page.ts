import type { EmployeeResponse } from '../../employees/dto/employee.response';
import type { PageFields } from '../../pagination/pagination';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { Flash, signedInPage } from '../layout/layout';
import { filterForm, pager, searchField, table } from '../layout/table';

const EMPLOYEES = '/console/employees';

/** The Status filter's choices: everyone, or GET /employees's isActive true or false. */
export const EMPLOYEE_STATUSES = ['all', 'active', 'deactivated'] as const;
export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];

export interface EmployeesView {
  employees: EmployeeResponse[];
  meta: PageFields;
  /** Each listed employee's number of skills, by id (absent: none). */
  skillCounts: ReadonlyMap<string, number>;
  search: string;
  status: EmployeeStatus;
}

/** Whether the employee is still employed, as GET /employees's isActive filter reads leftAt. */
export function statusOf(employee: Pick<EmployeeResponse, 'leftAt'>): 'active' | 'deactivated' {
  return employee.leftAt === null ? 'active' : 'deactivated';
}

export function fullName(employee: Pick<EmployeeResponse, 'firstName' | 'lastName'>): string {
  return `${employee.firstName} ${employee.lastName}`;
}

function employeeRow(employee: EmployeeResponse, skills: number): Html {
  const status = statusOf(employee);
  return html`<tr>
    <td data-label="Name" class="break"><a href="${EMPLOYEES}/${employee.id}">${fullName(employee)}</a></td>
    <td data-label="Email" class="break">${employee.businessEmail}</td>
    <td data-label="Title" class="break">${employee.title ?? ''}</td>
    <td data-label="Skills" class="number">${skills}</td>
    <td data-label="Status"><span class="status status-${status}">${status}</span></td>
  </tr>`;
}

/** The query string of a page of this list, its search and status kept. */
function pageLink(view: EmployeesView, page: number): string {
  const query = new URLSearchParams();
  if (view.search !== '') query.set('search', view.search);
  if (view.status !== 'all') query.set('status', view.status);
  query.set('page', String(page));
  return `${EMPLOYEES}?${query.toString()}`;
}

function countLine(view: EmployeesView): string {
  const { total, page, totalPages } = view.meta;
  const people = `${total.toLocaleString('en')} employee${total === 1 ? '' : 's'}`;
  const matching = view.search === '' ? '' : ` matching “${view.search}”`;
  return totalPages <= 1
    ? `${people}${matching}.`
    : `${people}${matching}: page ${page} of ${totalPages.toLocaleString('en')}.`;
}

/** The organisation's employees, oldest first as GET /employees lists them, 50 a page, searchable. */
export function employeesPage(viewer: ConsoleViewer, view: EmployeesView, flash: Flash): Html {
  const statusOptions = EMPLOYEE_STATUSES.map(
    (status) =>
      html`<option value="${status}" ${status === view.status ? html`selected` : ''}>
        ${status === 'all' ? 'everyone' : status}
      </option>`,
  );
  return signedInPage(
    viewer,
    'Employees',
    'Employees',
    html`<p class="muted">
        The organisation’s employees, oldest first, as <code>GET /api/v1/employees</code> lists them. Open one for their
        skills, rating history and personal data.
      </p>
      ${filterForm(
        EMPLOYEES,
        html`${searchField('employee-search', view.search, 'employee-search-hint')}
          <div>
            <label for="employee-status">Status</label>
            <select id="employee-status" name="status">
              ${statusOptions}
            </select>
          </div>`,
        'Search',
        { name: 'Employees', search: true },
      )}
      <p class="muted hint" id="employee-search-hint">Part of a name, an email or a personnel number.</p>
      <p>${countLine(view)}</p>
      ${table(['Name', 'Email', 'Title', 'Skills', 'Status'], view.employees, (employee) =>
        employeeRow(employee, view.skillCounts.get(employee.id) ?? 0),
      )}
      ${pager(
        { label: 'Previous', href: view.meta.hasPrevPage ? pageLink(view, view.meta.page - 1) : null },
        { label: 'Next', href: view.meta.hasNextPage ? pageLink(view, view.meta.page + 1) : null },
      )}`,
    flash,
  );
}
