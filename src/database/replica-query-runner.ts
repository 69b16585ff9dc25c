import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { isReplicaFailure } from './replica-failures';

/** Asks the primary what a replica failed to answer, as TypeORM's QueryRunner.query would answer it. */
export type PrimaryFallback = (
  error: unknown,
  query: string,
  parameters: unknown[] | undefined,
  structured: boolean,
) => Promise<unknown>;

/**
 * The query runner of a replica's data source: a statement the replica fails for a replica's reason (down,
 * slow, a recovery conflict, a write it refuses) is run again on the primary, so a replica never fails a read.
 * Not inside a transaction on the replica, where the statements before it would be lost.
 */
export class ReplicaQueryRunner extends PostgresQueryRunner {
  constructor(
    driver: PostgresDriver,
    private readonly fallback: PrimaryFallback,
  ) {
    super(driver, 'master');
  }

  override async query(query: string, parameters?: unknown[], useStructuredResult = false): Promise<unknown> {
    try {
      return await super.query(query, parameters, useStructuredResult);
    } catch (error) {
      // eslint-disable-next-line no-restricted-syntax -- a replica's runner, which Database never opens one on
      if (this.isTransactionActive || !isReplicaFailure(error)) throw error;
      return this.fallback(error, query, parameters, useStructuredResult);
    }
  }
}
