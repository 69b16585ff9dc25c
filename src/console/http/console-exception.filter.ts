import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../database/database-unavailable';
import { AppError } from '../../errors/errors';
import { messagePage } from '../layout/layout';
import { SignInRequiredError } from './console-errors';
import { sendPage, seeOther } from './page-response';

/**
 * The console's errors as pages, not as the API's JSON envelope: no session sends the browser to sign in; a
 * typed error is a page with its status and message (another organisation's id is 404, as in the API); the
 * database down is 503; anything else is 500, logged, its cause never shown.
 */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    if (exception instanceof SignInRequiredError) return seeOther(response, '/console/sign-in');
    const { status, title, message } = describe(exception);
    if (status === HttpStatus.INTERNAL_SERVER_ERROR) {
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    }
    if (status === HttpStatus.SERVICE_UNAVAILABLE) response.setHeader('Retry-After', DATABASE_RETRY_AFTER_SECONDS);
    sendPage(response, messagePage(title, message), { status });
  }
}

function describe(exception: unknown): { status: number; title: string; message: string } {
  if (isDatabaseUnavailable(exception)) {
    return { status: HttpStatus.SERVICE_UNAVAILABLE, title: 'Unavailable', message: 'Try again in a few seconds.' };
  }
  if (exception instanceof AppError) {
    if (exception.status === HttpStatus.NOT_FOUND) {
      return { status: HttpStatus.NOT_FOUND, title: 'Not found', message: 'There is no such page here.' };
    }
    const title = exception.status === HttpStatus.FORBIDDEN ? 'Not allowed' : 'Not done';
    return { status: exception.status, title, message: exception.message };
  }
  if (exception instanceof HttpException && exception.getStatus() === HttpStatus.NOT_FOUND) {
    return { status: HttpStatus.NOT_FOUND, title: 'Not found', message: 'There is no such page here.' };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, title: 'Something went wrong', message: 'Try again later.' };
}
