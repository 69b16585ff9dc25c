import type { EmployeeResponse } from './dto/employee.response';

/** The events of employees: each but `employee.erased` carries the Employee as the API returns it after the change. */
declare module '../events/domain-events' {
  interface DomainEventMap {
    'employee.created': EmployeeResponse;
    'employee.updated': EmployeeResponse;
    'employee.deactivated': EmployeeResponse;
    /** Feed only: the employee's personal data was erased (docs/api-decisions.md, "Data protection"). */
    'employee.erased': { id: string; erasedAt: string };
  }
}
