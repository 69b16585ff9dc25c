import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { readRouting } from './read-routing';
import { Replicas } from './replicas';

/**
 * With DATABASE_REPLICA_URLS: checks the replicas and routes the GETs under `/prefix` to them (docs/adr/0012),
 * but GET /events: its cursor is an event's id, which a replica behind the page the reader read last (on the
 * primary, or another replica) does not have yet, so it would answer 400 where the primary goes on.
 * Without replicas, nothing: no middleware, no check, every query on the primary as before.
 */
export function useReadReplicas(app: INestApplication, prefix: string): void {
  const replicas = app.get(Replicas);
  if (!replicas.configured) return;
  const primaryPaths = [`/${prefix}/events`];
  app.use(readRouting(replicas, app.get(DataSource), `/${prefix}/`, primaryPaths));
  replicas.start();
}
