import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';

/** The replica a request reads on, for everything it runs (read-routing.ts). */
const replicaOfRequest = new AsyncLocalStorage<EntityManager>();

/** The manager of the replica the current request reads on; undefined: the primary. */
export function replicaManager(): EntityManager | undefined {
  return replicaOfRequest.getStore();
}

/** Runs `work`, and all it starts, with reads (outside transactions) on `replica`. */
export function readingOn<T>(replica: EntityManager, work: () => T): T {
  return replicaOfRequest.run(replica, work);
}

/** Runs `work`, and all it starts, with reads on the primary, inside a request that reads on a replica. */
export function onPrimary<T>(work: () => T): T {
  return replicaOfRequest.exit(work);
}
