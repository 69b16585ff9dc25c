import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from './database';

/** How long a bookkeeping write waits for a lock before it gives up. */
const LOCK_TIMEOUT = '100ms';
/** How long any of its statements may run: a write of bookkeeping never holds its connection for long. */
const STATEMENT_TIMEOUT = '2s';
/** How soon a queue tries again what a failed write could not write (while a lock lasts, say). */
export const BOOKKEEPING_RETRY_MS = 1000;

/**
 * Bookkeeping writes (a key's last use, a console session's last activity): notes the service keeps about
 * requests, never part of one (docs/adr/0002). One rule for all of them: each runs unawaited, in a short
 * transaction of its own that gives up on a lock after LOCK_TIMEOUT, and at most one write of each kind is in
 * flight per instance, so however the database is blocked they hold at most one pooled connection per kind.
 */
@Injectable()
export class BookkeepingWrites {
  private readonly inFlight = new Set<string>();

  constructor(private readonly database: Database) {}

  /** Whether a write of `kind` is in flight. */
  busy(kind: string): boolean {
    return this.inFlight.has(kind);
  }

  /**
   * Runs `write` unless a write of `kind` is in flight: then it is dropped and false is answered. True once it
   * is written; a failure (a lock it did not get) rejects, for the caller to log or to try again.
   */
  async run(kind: string, write: (manager: EntityManager) => Promise<unknown>): Promise<boolean> {
    if (this.inFlight.has(kind)) return false;
    this.inFlight.add(kind);
    try {
      await this.database.transaction(async (manager) => {
        await manager.query(`SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', $2, true)`, [
          LOCK_TIMEOUT,
          STATEMENT_TIMEOUT,
        ]);
        await write(manager);
      });
      return true;
    } finally {
      this.inFlight.delete(kind);
    }
  }
}

/**
 * Bookkeeping due for many rows at once (the keys used this minute): entries collect by row and are written
 * together, all in one statement, by one write of the kind at a time. What comes due while a write is in
 * flight waits for it; what a failed write could not write is tried again after BOOKKEEPING_RETRY_MS, unless
 * a newer entry of its row came meanwhile. A run of failures (a lock of minutes, an outage) is reported once.
 */
export class BookkeepingQueue<T> {
  private readonly due = new Map<string, T>();
  private retry?: NodeJS.Timeout;
  /** Whether the last write failed: `failed` hears of the first failure of a run of them, not of every retry. */
  private failing = false;

  constructor(
    private readonly writes: BookkeepingWrites,
    private readonly kind: string,
    private readonly writeAll: (entries: T[], manager: EntityManager) => Promise<unknown>,
    private readonly failed: (error: unknown, entries: number) => void,
  ) {}

  /** Queues the row's entry (replacing an earlier one) and writes what is due unless a write is in flight. */
  add(row: string, entry: T): void {
    this.due.set(row, entry);
    this.flush();
  }

  /** Stops trying again; what is still due is not written. */
  stop(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
  }

  private flush(): void {
    if (this.due.size === 0 || this.writes.busy(this.kind)) return;
    const batch = new Map(this.due);
    this.due.clear();
    this.writes
      .run(this.kind, (manager) => this.writeAll([...batch.values()], manager))
      .then(
        () => {
          this.failing = false;
          this.flush();
        },
        (error: unknown) => {
          for (const [row, entry] of batch) if (!this.due.has(row)) this.due.set(row, entry);
          if (!this.failing) this.failed(error, batch.size);
          this.failing = true;
          this.retryLater();
        },
      );
  }

  private retryLater(): void {
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.flush();
    }, BOOKKEEPING_RETRY_MS);
    this.retry.unref();
  }
}
