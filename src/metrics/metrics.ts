import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { APP_CONFIG, AppConfig, webhookClaimLifetimeMs } from '../config/config';
import { Replicas } from '../database/replicas';
import type { RequestObserver } from '../http/request-log';
import { MetricsRepository, OutboxState } from './metrics.repository';

/** OpenTelemetry's advice for http.server.request.duration, in seconds. */
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** A scrape reads the outbox at most this often, so several Prometheus replicas don't load the database. */
const OUTBOX_CACHE_MS = 5000;

export type DeliveryOutcomeLabel = 'delivered' | 'failed' | 'refused';

/**
 * The process's Prometheus series (decisions.md "Operations", docs/operations.md), named by the
 * OpenTelemetry semantic conventions as Prometheus exports them. No label ever holds an organisation, a key
 * or a raw path: routes are templates. Gauges that cost a lookup (pool, outbox) are read on scrape only.
 */
@Injectable()
export class Metrics implements RequestObserver {
  readonly registry = new Registry();
  private readonly logger = new Logger(Metrics.name);
  private readonly httpDuration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers: [this.registry],
  });
  /** One child per label combination, found by one string key instead of prom-client's per-call label hashing. */
  private readonly httpChildren = new Map<string, { observe(seconds: number): void }>();
  private readonly deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts finished, by outcome (delivered, failed, refused)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly deliveryDuration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Duration of webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly rateLimitRejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429 by the rate limit',
    registers: [this.registry],
  });
  private outbox?: { at: number; value: Promise<OutboxState> };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() dataSource: DataSource,
    private readonly repository: MetricsRepository,
    replicas: Replicas,
  ) {
    // Only a process that is scraped pays for the event-loop monitor and the other process series.
    if (config.metricsPort !== 0) collectDefaultMetrics({ register: this.registry });
    this.poolGauges((dataSource.driver as PostgresDriver).master as Pool);
    this.outboxGauges();
    if (replicas.configured) this.replicaSeries(replicas);
  }

  /** One observation per request, from the access-log middleware. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    const key = `${method} ${statusCode} ${route}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = this.httpDuration.labels({ method, route, status_code: statusCode });
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  deliveryFinished(outcome: DeliveryOutcomeLabel, durationMs: number): void {
    this.deliveries.inc({ outcome });
    this.deliveryDuration.observe({ outcome }, durationMs / 1000);
  }

  rateLimited(): void {
    this.rateLimitRejections.inc();
  }

  private poolGauges(pool: Pool): void {
    new Gauge({
      name: 'db_client_connection_count',
      help: 'Connections of the database pool, by state (used, idle)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.set({ state: 'used' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'db_client_connection_pending_requests',
      help: 'Requests waiting for a connection of the database pool',
      registers: [this.registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  /** Only with DATABASE_REPLICA_URLS: each replica's lag, and where GETs read (docs/operations.md). */
  private replicaSeries(replicas: Replicas): void {
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: 'How far each read replica was behind the primary at its last check; absent while it is left out',
      labelNames: ['replica'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { name, seconds } of replicas.lags())
          if (seconds !== undefined) this.set({ replica: name }, seconds);
      },
    });
    new Counter({
      name: 'db_reads_total',
      help: 'GET requests under /api/v1 routed by this process, by where they read (primary, replica)',
      labelNames: ['target'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc({ target: 'primary' }, replicas.reads.primary);
        this.inc({ target: 'replica' }, replicas.reads.replica);
      },
    });
    new Counter({
      name: 'db_replica_fallbacks_total',
      help: 'Statements a replica failed (down, a recovery conflict) that the primary answered instead',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(replicas.reads.fallbacks);
      },
    });
  }

  private outboxGauges(): void {
    const read = () => this.outboxState();
    new Gauge({
      name: 'webhook_undelivered_events',
      help: 'Events with at least one webhook delivery not yet sent',
      registers: [this.registry],
      async collect() {
        const value = await read();
        if (value) this.set(value.undeliveredEvents);
      },
    });
    new Gauge({
      name: 'webhook_oldest_undelivered_event_age_seconds',
      help: 'Age of the oldest webhook delivery not yet sent (0: none)',
      registers: [this.registry],
      async collect() {
        const value = await read();
        if (value) this.set(value.oldestAgeSeconds);
      },
    });
    new Gauge({
      name: 'webhook_endpoints_at_in_flight_limit',
      help: 'Webhook endpoints with WEBHOOK_ENDPOINT_CONCURRENCY deliveries in flight: receivers slower than their traffic, or not answering',
      registers: [this.registry],
      async collect() {
        const value = await read();
        if (value) this.set(value.endpointsAtInFlightLimit);
      },
    });
  }

  /** Cached for a few seconds; undefined (the gauges keep their last values) while the database cannot answer. */
  private async outboxState(): Promise<OutboxState | undefined> {
    const now = Date.now();
    if (!this.outbox || now - this.outbox.at > OUTBOX_CACHE_MS) {
      const staleBefore = new Date(now - webhookClaimLifetimeMs(this.config));
      this.outbox = { at: now, value: this.repository.outbox(this.config.webhookEndpointConcurrency, staleBefore) };
    }
    try {
      return await this.outbox.value;
    } catch (error) {
      this.outbox = undefined;
      this.logger.warn(`Reading the webhook outbox for metrics failed: ${(error as Error).message}`);
      return undefined;
    }
  }
}
