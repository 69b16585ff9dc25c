import type { IncomingMessage } from 'node:http';
import { NestInterceptor, Type, UseInterceptors } from '@nestjs/common';
import { RouterExecutionContext } from '@nestjs/core/router/router-execution-context';

/**
 * An interceptor that only some requests need: a route it is bound to runs without it (and without Nest's
 * interceptor machinery: an execution context, deferred Observables, AsyncResource binds) for a request it does
 * not apply to. The guards run first either way, so what the interceptor checks still comes after them.
 */
export interface OptionalInterceptor extends NestInterceptor {
  appliesTo(request: IncomingMessage): boolean;
}

/** Binds an optional interceptor to a route or controller, as UseInterceptors does for any other. */
export function UseOptionalInterceptor(interceptor: Type<OptionalInterceptor>): MethodDecorator & ClassDecorator {
  letRequestsSkipOptionalInterceptors();
  return UseInterceptors(interceptor);
}

type Handler = ReturnType<RouterExecutionContext['create']>;
type CreateArguments = Parameters<RouterExecutionContext['create']>;
type Next = Parameters<Handler>[2];
/** The part of RouterExecutionContext's state that says which interceptors a route has. */
interface InterceptorsOf {
  interceptorsContextCreator: {
    create(...args: [CreateArguments[0], CreateArguments[1], string, CreateArguments[5]?, string?]): NestInterceptor[];
  };
}

const isOptional = (interceptor: NestInterceptor): interceptor is OptionalInterceptor =>
  typeof (interceptor as Partial<OptionalInterceptor>).appliesTo === 'function';

let installed = false;

/**
 * Nest builds one handler per route, its interceptors fixed (RouterExecutionContext.create, called once per
 * route at start-up); it has no interceptor a request can skip. So a route with an optional interceptor gets
 * two handlers from Nest, with its interceptors and without its optional ones, and each request takes the first
 * when an optional interceptor applies to it. Nest has no public hook here: this wraps that one method, and
 * optional-interceptor.spec.ts holds it to its behaviour, so a Nest release that changes it fails the tests.
 */
function letRequestsSkipOptionalInterceptors(): void {
  if (installed) return;
  installed = true;
  const { prototype } = RouterExecutionContext;
  const original = Object.getOwnPropertyDescriptor(prototype, 'create')?.value as (
    this: RouterExecutionContext,
    ...args: CreateArguments
  ) => Handler;
  prototype.create = function (this: RouterExecutionContext, ...args: CreateArguments): Handler {
    const withInterceptors = original.apply(this, args);
    const [instance, callback, , moduleKey, , contextId, inquirerId] = args;
    const { interceptorsContextCreator } = this as unknown as InterceptorsOf;
    const interceptors = interceptorsContextCreator.create(instance, callback, moduleKey, contextId, inquirerId);
    const optional = interceptors.filter(isOptional);
    if (optional.length === 0) return withInterceptors;
    const others = interceptors.filter((interceptor) => !isOptional(interceptor));
    const withoutOptional: InterceptorsOf = { interceptorsContextCreator: { create: () => others } };
    const withoutInterceptors = original.apply(
      Object.create(this, Object.getOwnPropertyDescriptors(withoutOptional)) as RouterExecutionContext,
      args,
    );
    return <TRequest, TResponse>(request: TRequest, response: TResponse, next: Next) =>
      optional.some((interceptor) => interceptor.appliesTo(request as IncomingMessage))
        ? withInterceptors(request, response, next)
        : withoutInterceptors(request, response, next);
  };
}
