import { createServer, Server } from 'node:http';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, unbindablePortError } from '../config/config';
import { Metrics } from './metrics';

/**
 * /metrics in Prometheus text format on METRICS_PORT, apart from the API's port (no key, never behind the
 * public balancer). Started by main.ts in the API and the worker alike; METRICS_PORT=0 starts nothing.
 */
@Injectable()
export class MetricsServer implements OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** Listens on METRICS_PORT; a port that cannot be bound is a ConfigError naming it. */
  async start(): Promise<void> {
    const port = this.config.metricsPort;
    if (port === 0 || this.server) return;
    const { registry } = this.metrics;
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
        return;
      }
      registry.metrics().then(
        (text) => response.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
        (error: Error) => {
          this.logger.error(`Collecting metrics failed: ${error.message}`);
          response.writeHead(500, { 'Content-Type': 'text/plain' }).end('Collecting metrics failed\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => reject(unbindablePortError('METRICS_PORT', port, error)));
      server.listen(port, () => resolve());
    });
    this.server = server;
    this.logger.log(`Metrics on port ${port} at /metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
