import { HttpStatus } from '@nestjs/common';

/** The stable error codes of the contract (docs/api-decisions.md). */
export enum ErrorCode {
  VALIDATION_ERROR = 'VALIDATION_ERROR',
  UNAUTHORIZED = 'UNAUTHORIZED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED',
  RATE_LIMITED = 'RATE_LIMITED',
  INTERNAL_ERROR = 'INTERNAL_ERROR',
  SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE',
}

export interface FieldError {
  field: string;
  message: string;
}

/** An error a client caused or may act on; the exception filter turns it into the error envelope. */
export class AppError extends Error {
  constructor(
    readonly status: HttpStatus,
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldError[],
  ) {
    super(message);
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: FieldError[]) {
    super(HttpStatus.BAD_REQUEST, ErrorCode.VALIDATION_ERROR, message, details);
  }

  static forField(field: string, message: string): ValidationError {
    return new ValidationError(message, [{ field, message }]);
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string) {
    super(HttpStatus.NOT_FOUND, ErrorCode.NOT_FOUND, `${resource} not found`);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: FieldError[]) {
    super(HttpStatus.CONFLICT, ErrorCode.CONFLICT, message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Missing or invalid API key') {
    super(HttpStatus.UNAUTHORIZED, ErrorCode.UNAUTHORIZED, message);
  }
}

/** A valid API key without the scope the route needs (never for another organisation's ids: those are 404). */
export class ForbiddenError extends AppError {
  constructor(scope: string) {
    super(HttpStatus.FORBIDDEN, ErrorCode.FORBIDDEN, `This API key lacks the "${scope}" scope`);
  }
}

export class RateLimitedError extends AppError {
  constructor() {
    super(HttpStatus.TOO_MANY_REQUESTS, ErrorCode.RATE_LIMITED, 'Rate limit exceeded, retry after the window resets');
  }
}

export class PayloadTooLargeError extends AppError {
  constructor() {
    super(HttpStatus.PAYLOAD_TOO_LARGE, ErrorCode.PAYLOAD_TOO_LARGE, 'Request body exceeds 1 MiB');
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor() {
    super(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Request body must be application/json');
  }
}

/** An Idempotency-Key sent again with a different method, path or body. */
export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(
      HttpStatus.UNPROCESSABLE_ENTITY,
      ErrorCode.IDEMPOTENCY_KEY_REUSED,
      'This Idempotency-Key was used with a different request (method, path or body)',
    );
  }
}

/** The database is unreachable or too slow, or the instance is stopping: retry later, maybe elsewhere. */
export class ServiceUnavailableError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(HttpStatus.SERVICE_UNAVAILABLE, ErrorCode.SERVICE_UNAVAILABLE, message);
  }
}

export interface ErrorBody {
  success: false;
  error: { message: string; code: ErrorCode; details?: FieldError[] };
}

export function errorBody(code: ErrorCode, message: string, details?: FieldError[]): ErrorBody {
  return { success: false, error: details ? { message, code, details } : { message, code } };
}
