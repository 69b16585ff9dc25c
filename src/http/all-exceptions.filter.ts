import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../database/database-unavailable';
import { AppError, ErrorBody, ErrorCode, errorBody, ServiceUnavailableError } from '../errors/errors';
import { IdentifiedRequest, requestFields } from './request-log';

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: ErrorCode.VALIDATION_ERROR,
  [HttpStatus.UNAUTHORIZED]: ErrorCode.UNAUTHORIZED,
  [HttpStatus.FORBIDDEN]: ErrorCode.FORBIDDEN,
  [HttpStatus.NOT_FOUND]: ErrorCode.NOT_FOUND,
  [HttpStatus.CONFLICT]: ErrorCode.CONFLICT,
  [HttpStatus.PAYLOAD_TOO_LARGE]: ErrorCode.PAYLOAD_TOO_LARGE,
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  [HttpStatus.TOO_MANY_REQUESTS]: ErrorCode.RATE_LIMITED,
  [HttpStatus.SERVICE_UNAVAILABLE]: ErrorCode.SERVICE_UNAVAILABLE,
};

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  /** Set on every 503: a database outage, a failed readiness check, a stopping instance. */
  retryAfterSeconds?: number;
}

/**
 * What the client gets for anything thrown: a typed AppError as it says, Nest's own exceptions by their
 * status, a database that is down or too slow as 503 (the service's trouble, never 500), anything else
 * as a generic 500 (a bug: the cause goes to the log, never to the client).
 */
export function toErrorResponse(exception: unknown): ErrorResponse {
  if (isDatabaseUnavailable(exception)) {
    const status = HttpStatus.SERVICE_UNAVAILABLE;
    const body = errorBody(ErrorCode.SERVICE_UNAVAILABLE, 'The database is unavailable; retry later');
    return { status, body, retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS };
  }
  if (exception instanceof AppError) {
    const retryAfterSeconds = exception instanceof ServiceUnavailableError ? exception.retryAfterSeconds : undefined;
    const body = errorBody(exception.code, exception.message, exception.details);
    return { status: exception.status, body, retryAfterSeconds };
  }
  if (exception instanceof HttpException && exception.getStatus() !== HttpStatus.INTERNAL_SERVER_ERROR) {
    const status = exception.getStatus();
    const code = CODE_BY_STATUS[status] ?? ErrorCode.VALIDATION_ERROR;
    const message = status === HttpStatus.NOT_FOUND ? 'Resource not found' : exception.message;
    const retryAfterSeconds = status === HttpStatus.SERVICE_UNAVAILABLE ? DATABASE_RETRY_AFTER_SECONDS : undefined;
    return { status, body: errorBody(code, message), retryAfterSeconds };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: errorBody(ErrorCode.INTERNAL_ERROR, 'Internal server error'),
  };
}

/** The one place where anything thrown becomes the error envelope. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body, retryAfterSeconds } = toErrorResponse(exception);
    if (status >= 500) this.log(exception, status, host.switchToHttp().getRequest<IdentifiedRequest>());
    if (response.headersSent) return;
    if (retryAfterSeconds !== undefined && !response.hasHeader('Retry-After')) {
      response.setHeader('Retry-After', retryAfterSeconds);
    }
    response.status(status).json(body);
  }

  /** With the request's fields, as the access log names it: there is no per-request logger to carry them. */
  private log(exception: unknown, status: number, request: IdentifiedRequest): void {
    const req = requestFields(request);
    if (status === HttpStatus.INTERNAL_SERVER_ERROR) {
      this.logger.error({ req, msg: exception instanceof Error ? exception.stack : String(exception) });
    } else {
      this.logger.warn({
        req,
        msg: `${status}: ${exception instanceof Error ? exception.message : String(exception)}`,
      });
    }
  }
}
