import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { from, isObservable, mergeAll, Observable } from 'rxjs';

/**
 * Several interceptors registered as one, the first outermost, as Nest would run them. Nest wraps the
 * `next` of every interceptor it runs in an AsyncResource, a deferred Observable and a promise, for every
 * request; here those are made once per request, and the interceptors call each other directly.
 */
export class InterceptorChain implements NestInterceptor {
  constructor(private readonly interceptors: readonly NestInterceptor[]) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return this.from(0, context, next);
  }

  private from(index: number, context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (index === this.interceptors.length) return next.handle();
    const result = this.interceptors[index].intercept(context, {
      handle: () => this.from(index + 1, context, next),
    });
    return isObservable(result) ? result : from(result).pipe(mergeAll());
  }
}
