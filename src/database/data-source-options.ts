import type { DataSourceOptions } from 'typeorm';
import { DiscardingClient } from './discarding-client';
import { MIGRATIONS } from './migrations';

/** How long the server waits on the database before it answers 503 (DATABASE_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS). */
export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
}

/**
 * The longest a write transaction may hold back an `updatedAt` (docs/api-decisions.md, cursor paging): the server
 * ends a statement, and a transaction left idle, after this; delta-sync clients resume with a 60 s margin.
 */
export const TRANSACTION_LIMIT_MS = 30_000;

/**
 * A frozen or unreachable server cannot cancel its own statements: the client gives up this much later, so a
 * request in flight still answers within DATABASE_STATEMENT_TIMEOUT_MS + 1 s.
 */
const CLIENT_QUERY_TIMEOUT_MARGIN_MS = 500;

/** pg's `query_timeout` for a statement limit: how long the client waits for any answer from the server. */
export function clientQueryTimeoutMs(statementMs: number): number {
  return Math.min(statementMs, TRANSACTION_LIMIT_MS) + CLIENT_QUERY_TIMEOUT_MARGIN_MS;
}

/**
 * One definition of the connection, shared by the app, the CLI, ormconfig.ts and the tests. Without
 * timeouts (migrations, the CLI, seeding) statements may run as long as they need. The entities are the
 * app's to add (src/entities.ts), so database/ names no feature.
 */
export function createDataSourceOptions(url: string, poolSize = 10, timeouts?: DatabaseTimeouts): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    extra: {
      max: poolSize,
      // A query is sent without waiting for the answer to the one before (pg's documented pipelining): what
      // Database.sendWithCommit holds travels with its transaction's COMMIT.
      pipeline: true,
      idle_in_transaction_session_timeout: TRANSACTION_LIMIT_MS,
      ...(timeouts && {
        // Bounds both connecting and waiting for a free pooled connection.
        connectionTimeoutMillis: timeouts.connectMs,
        statement_timeout: Math.min(timeouts.statementMs, TRANSACTION_LIMIT_MS),
        query_timeout: clientQueryTimeoutMs(timeouts.statementMs),
        // A connection whose query timed out is closed, not handed to the next query (pg-pool's Client option).
        Client: DiscardingClient,
      }),
    },
  };
}
