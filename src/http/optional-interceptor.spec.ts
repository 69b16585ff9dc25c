import type { IncomingMessage } from 'node:http';
import {
  Body,
  CallHandler,
  CanActivate,
  Controller,
  ExecutionContext,
  INestApplication,
  Injectable,
  NestInterceptor,
  ParseIntPipe,
  Post,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { catchError, map, Observable, of } from 'rxjs';
import request from 'supertest';
import { OptionalInterceptor, UseOptionalInterceptor } from './optional-interceptor';

const calls: string[] = [];

@Injectable()
class WhenAsked implements OptionalInterceptor {
  appliesTo(request: IncomingMessage): boolean {
    return request.headers['x-ask'] !== undefined;
  }

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    calls.push('optional');
    // Around the pipes as well as the handler: a pipe's error reaches it.
    return next.handle().pipe(
      map((value) => ({ wrapped: value })),
      catchError(() => of({ caught: true })),
    );
  }
}

@Injectable()
class Always implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    calls.push('always');
    return next.handle();
  }
}

@Injectable()
class Refusing implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    calls.push('guard');
    return context.switchToHttp().getRequest<IncomingMessage>().headers['x-refuse'] === undefined;
  }
}

@Controller('things')
@UseGuards(Refusing)
class Things {
  @UseOptionalInterceptor(WhenAsked)
  @UseInterceptors(Always)
  @Post()
  create(@Body('n', ParseIntPipe) n: number) {
    calls.push('handler');
    return { n };
  }

  @UseInterceptors(Always)
  @Post('plain')
  plain() {
    return { plain: true };
  }
}

describe('UseOptionalInterceptor', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const module = await Test.createTestingModule({ controllers: [Things], providers: [WhenAsked, Always] }).compile();
    app = module.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());
  beforeEach(() => (calls.length = 0));

  const post = (path: string) => request(app.getHttpServer()).post(path);

  it('leaves the interceptor out for a request it does not apply to, and keeps the others', async () => {
    const response = await post('/things').send({ n: '7' }).expect(201);
    expect(response.body).toEqual({ n: 7 });
    expect(calls).toEqual(['guard', 'always', 'handler']);
  });

  it('runs it, around the pipes, for a request it applies to', async () => {
    expect((await post('/things').set('X-Ask', 'yes').send({ n: '7' }).expect(201)).body).toEqual({
      wrapped: { n: 7 },
    });
    expect(calls).toEqual(['guard', 'always', 'optional', 'handler']);

    calls.length = 0;
    expect((await post('/things').set('X-Ask', 'yes').send({ n: 'seven' }).expect(201)).body).toEqual({
      caught: true,
    });
    expect(calls).toEqual(['guard', 'always', 'optional']);
  });

  it('runs the guards before it either way', async () => {
    await post('/things').set('X-Ask', 'yes').set('X-Refuse', 'yes').send({ n: '7' }).expect(403);
    await post('/things').set('X-Refuse', 'yes').send({ n: '7' }).expect(403);
    expect(calls).toEqual(['guard', 'guard']);
  });

  it('changes nothing on a route without one', async () => {
    await post('/things/plain').set('X-Ask', 'yes').expect(201, { plain: true });
    expect(calls).toEqual(['guard', 'always']);
  });
});
