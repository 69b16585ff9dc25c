import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { BulkResult } from './bulk';
import { Page } from './pagination';

/** Wraps every successful result as `{success: true, data[, meta]}`: a list's page and a bulk result carry meta. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next
      .handle()
      .pipe(
        map((result: unknown) =>
          result instanceof Page || result instanceof BulkResult
            ? { success: true, data: result.items, meta: result.meta }
            : { success: true, data: result ?? null },
        ),
      );
  }
}
