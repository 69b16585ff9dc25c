import { Controller, Post } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { applicationControllers, Class, keyedRoutes } from '../../test/support/application-routes';
import { Idempotent, IdempotencyInterceptor } from './idempotency.interceptor';

/** The keyed POST routes of the controllers that do not bind the idempotency interceptor. */
function postsWithoutIdempotency(controllers: Class[]): string[] {
  return keyedRoutes(controllers)
    .filter(({ method }) => method === 'POST')
    .filter(({ handler }) => {
      const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
      return !interceptors.includes(IdempotencyInterceptor);
    })
    .map(({ route }) => route);
}

describe('@Idempotent()', () => {
  it('is on every POST route that needs a key (decisions.md, "Safe retries")', async () => {
    const controllers = await applicationControllers();
    expect(keyedRoutes(controllers).filter(({ method }) => method === 'POST').length).toBeGreaterThan(10);
    expect(postsWithoutIdempotency(controllers)).toEqual([]);
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
