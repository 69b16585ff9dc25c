/** What a console user may do: `admin` changes everything; `viewer` sees every page and changes nothing. */
export type ConsoleRole = 'admin' | 'viewer';

export const CONSOLE_ROLES: readonly ConsoleRole[] = ['admin', 'viewer'];

export function isConsoleRole(value: unknown): value is ConsoleRole {
  return CONSOLE_ROLES.includes(value as ConsoleRole);
}
