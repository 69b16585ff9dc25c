import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page } from '../common/pagination';
import { EmployeeFields, EmployeeResponse, toEmployeeResponse } from './dto/employee.response';
import { ListEmployeesQuery } from './dto/list-employees.query';
import { employeeColumns } from './employee-columns';
import { employeeSearchCondition } from './employee-search';
import { escapeLikePattern } from '../common/like-pattern';

/**
 * One page of GET /employees and its exact total, in raw SQL. The page reads the ids of the requested
 * window first (an index-only scan of employees_list_idx when unfiltered, so a deep OFFSET skips index
 * entries rather than heap rows) and then only those rows. The total of an unfiltered or isActive-only list
 * is one row of organisation_employee_counts; other totals are counted. Page and total run concurrently on
 * two pool connections.
 */
@Injectable()
export class EmployeesListReader {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(organisationId: string, query: ListEmployeesQuery): Promise<Page<EmployeeResponse>> {
    const filters = ['e.organisation_id = $1'];
    const parameters: unknown[] = [organisationId];
    if (query.search !== undefined) {
      parameters.push(escapeLikePattern(query.search));
      filters.push(employeeSearchCondition('e', `$${parameters.length}`));
    }
    if (query.departmentId !== undefined) {
      parameters.push(query.departmentId);
      filters.push(`e.department_id = $${parameters.length}`);
    }
    if (query.isActive !== undefined) filters.push(query.isActive ? 'e.left_at IS NULL' : 'e.left_at IS NOT NULL');
    const where = filters.join(' AND ');

    const [rows, total] = await Promise.all([
      this.dataSource.query<EmployeeFields[]>(
        `SELECT ${employeeColumns('e')}
           FROM (SELECT e.id FROM employees e WHERE ${where}
                  ORDER BY e.created_at, e.id
                  LIMIT $${parameters.length + 1} OFFSET $${parameters.length + 2}) page
           JOIN employees e ON e.id = page.id
          ORDER BY e.created_at, e.id`,
        [...parameters, query.limit, query.offset],
      ),
      query.search === undefined && query.departmentId === undefined
        ? this.countFromCounter(organisationId, query.isActive)
        : this.count(where, parameters),
    ]);
    return Page.of(rows.map(toEmployeeResponse), total, query);
  }

  /**
   * The exact total of an unfiltered or isActive-only list: organisation_employee_counts is kept by triggers
   * in every employee write's transaction. No row yet: the organisation never had an employee.
   */
  private async countFromCounter(organisationId: string, isActive: boolean | undefined): Promise<number> {
    const [row] = await this.dataSource.query<{ total: number }[]>(
      `SELECT (CASE WHEN $2::boolean IS NULL THEN total WHEN $2 THEN active ELSE total - active END)::int AS total
         FROM organisation_employee_counts WHERE organisation_id = $1`,
      [organisationId, isActive ?? null],
    );
    return row?.total ?? 0;
  }

  private async count(where: string, parameters: unknown[]): Promise<number> {
    const [row] = await this.dataSource.query<{ total: number }[]>(
      `SELECT count(*)::int AS total FROM employees e WHERE ${where}`,
      parameters,
    );
    return row.total;
  }
}
