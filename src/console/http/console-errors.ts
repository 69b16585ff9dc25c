import { HttpStatus } from '@nestjs/common';
import { AppError, ErrorCode } from '../../errors/errors';
import type { ConsoleViewer } from './console-request';

/** A console page that needs a session, asked for without a live one: the filter sends the browser to sign in. */
export class SignInRequiredError extends Error {
  constructor() {
    super('Sign in first');
  }
}

/** A change the console refuses to this request: from another site, or by a viewer (403). */
export class ConsoleForbiddenError extends AppError {
  constructor(message: string) {
    super(HttpStatus.FORBIDDEN, ErrorCode.FORBIDDEN, message);
  }
}

/**
 * A page that only leads to a change (a form, a confirmation) is for admins: 403 for a viewer, as the change
 * itself would be (the guard refuses a viewer's every change).
 */
export function requireAdmin(viewer: ConsoleViewer): void {
  if (viewer.role !== 'admin') throw new ConsoleForbiddenError('Only an admin may change this');
}
