import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import { Public } from '../auth/public.decorator';
import { ServiceUnavailableError } from '../errors/errors';
import { Readiness } from './readiness';

/** Seconds a balancer is asked to wait before it asks a stopping instance again. */
const STOPPING_RETRY_AFTER_SECONDS = 30;

/** Liveness and readiness for orchestrators: no key, no rate limit, outside /api/v1. */
@ApiExcludeController()
@Public()
@SkipThrottle()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly readiness: Readiness,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    if (this.readiness.isStopping) {
      throw new ServiceUnavailableError('The instance is shutting down', STOPPING_RETRY_AFTER_SECONDS);
    }
    return this.health.check([() => this.database.pingCheck('database', { timeout: 1500 })]);
  }
}
