import { Controller, Get, Post } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { applicationControllers, Class, keyedRoutes } from '../../test/support/application-routes';
import { Idempotent, IdempotencyInterceptor } from './idempotency.interceptor';

const bindsIdempotency = (handler: object) =>
  ((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? []).includes(
    IdempotencyInterceptor,
  );

/** The keyed POST routes of the controllers that do not bind the idempotency interceptor. */
function postsWithoutIdempotency(controllers: Class[]): string[] {
  return keyedRoutes(controllers)
    .filter(({ method, handler }) => method === 'POST' && !bindsIdempotency(handler))
    .map(({ route }) => route);
}

/** How many route handlers bind it that are not keyed POST routes (public, or another method). */
function otherRoutesWithIdempotency(controllers: Class[]): number {
  const keyedPosts = new Set(
    keyedRoutes(controllers)
      .filter(({ method }) => method === 'POST')
      .map(({ handler }) => handler),
  );
  return controllers
    .flatMap((controller) => Object.values(Object.getOwnPropertyDescriptors(controller.prototype)))
    .map((descriptor) => descriptor.value as unknown)
    .filter((handler): handler is object => typeof handler === 'function')
    .filter((handler) => Reflect.hasMetadata(METHOD_METADATA, handler) && bindsIdempotency(handler))
    .filter((handler) => !keyedPosts.has(handler)).length;
}

describe('@Idempotent()', () => {
  it('is on every POST route that needs a key (docs/api-decisions.md, "Safe retries")', async () => {
    const controllers = await applicationControllers();
    expect(keyedRoutes(controllers).filter(({ method }) => method === 'POST').length).toBeGreaterThan(10);
    expect(postsWithoutIdempotency(controllers)).toEqual([]);
  });

  it('is on no other route, so the interceptor may take the method and the key as given', async () => {
    expect(otherRoutesWithIdempotency(await applicationControllers())).toBe(0);
    @Controller('things')
    class Things {
      @Idempotent()
      @Get()
      list() {}
    }
    expect(otherRoutesWithIdempotency([Things])).toBe(1);
  });

  it('reports a POST route without it', () => {
    @Controller('things')
    class Things {
      @Idempotent()
      @Post()
      create() {}

      @Post(':id/archive')
      archive() {}
    }
    expect(postsWithoutIdempotency([Things])).toEqual(['POST /things/:id/archive']);
  });
});
