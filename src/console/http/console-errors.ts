import { HttpStatus } from '@nestjs/common';
import { AppError, ErrorCode } from '../../errors/errors';

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
