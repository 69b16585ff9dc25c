import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsServer } from './metrics-server';
import { MetricsRepository } from './metrics.repository';

/** Global: the access log, the dispatcher and the rate limit record into the one Metrics of the app. */
@Global()
@Module({
  providers: [Metrics, MetricsRepository, MetricsServer],
  exports: [Metrics, MetricsServer],
})
export class MetricsModule {}
