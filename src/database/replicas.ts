import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { createDataSourceOptions, DatabaseTimeouts } from './data-source-options';
import { parseLogPosition } from './log-position';
import { isReplicaUnreachable } from './replica-failures';
import { ReplicaQueryRunner } from './replica-query-runner';

/** What DATABASE_REPLICA_URLS and DATABASE_REPLICA_MAX_LAG_MS say, with the primary's pool settings. */
export interface ReplicaOptions {
  urls: string[];
  maxLagMs: number;
  poolSize: number;
  timeouts?: DatabaseTimeouts;
}

export const REPLICA_OPTIONS = Symbol('REPLICA_OPTIONS');

/** How often each replica (and the primary's log position) is looked at. */
export const REPLICA_CHECK_INTERVAL_MS = 1000;
/** A check that has not answered in this long counts as failed: the replica is left out. */
const CHECK_TIMEOUT_MS = 2000;
/** A replica whose last good check is older than this is left out, whatever it said then. */
const CHECK_STALE_MS = 3000;
/** How far back the primary's log positions are kept, to tell how far behind a replica is. */
const PRIMARY_HISTORY_MS = 120_000;

/** One standby: its data source once reached, and what its last check found. */
interface Replica {
  /** Host, port and database of its URL, never its credentials: for logs and metrics. */
  readonly name: string;
  readonly url: string;
  dataSource?: DataSource;
  /** Whether a check is running. */
  checking: boolean;
  /** What its last check found, to log only a change; undefined before its first check. */
  up?: boolean;
  /** When its last check succeeded (ms since the epoch), 0: never, or since it failed. */
  checkedAt: number;
  /** How far it had replayed the primary's log then. */
  replayed: bigint;
  /** How far behind the primary it was then (ms); Infinity while unknown. */
  lagMs: number;
}

/** Where reads went, for the metrics. */
export interface ReadCounts {
  primary: number;
  replica: number;
  /** Statements a replica failed (down, recovery conflict) that the primary answered. */
  fallbacks: number;
}

/**
 * The streaming replicas of DATABASE_REPLICA_URLS: checked every second (reachable, how far replayed, how far
 * behind), chosen for a read by Database's routing (read-routing.ts), and left out while they fail
 * (docs/adr/0012). TypeORM's own `replication` option cannot do this: it picks a replica at random, knows
 * nothing of its health or lag, and fails the application's start when one is down.
 */
@Injectable()
export class Replicas implements OnApplicationShutdown {
  private readonly logger = new Logger(Replicas.name);
  private readonly replicas: Replica[];
  /** The primary's log position over time, oldest first: how far behind a replica's position is, in time. */
  private readonly primaryPositions: Array<{ at: number; position: bigint }> = [];
  private timer?: NodeJS.Timeout;
  private next = 0;
  readonly reads: ReadCounts = { primary: 0, replica: 0, fallbacks: 0 };

  constructor(
    @Inject(REPLICA_OPTIONS) private readonly options: ReplicaOptions,
    @InjectDataSource() private readonly primary: DataSource,
  ) {
    this.replicas = options.urls.map((url) => ({
      name: nameOf(url),
      url,
      checking: false,
      checkedAt: 0,
      replayed: 0n,
      lagMs: Infinity,
    }));
  }

  /** Whether DATABASE_REPLICA_URLS names any replica. */
  get configured(): boolean {
    return this.replicas.length > 0;
  }

  /** Starts checking the replicas (an HTTP server does; the CLI never reads on them). */
  start(): void {
    if (!this.configured || this.timer) return;
    this.timer = setInterval(() => void this.check(), REPLICA_CHECK_INTERVAL_MS);
    this.timer.unref();
    void this.check();
  }

  /**
   * The manager a GET reads on: a replica that has replayed the client's `token` (X-Consistency-Token), or with
   * no token one at most DATABASE_REPLICA_MAX_LAG_MS behind; undefined: the primary. Decided from the last
   * checks, without asking any server.
   */
  readManager(token: string | undefined): EntityManager | undefined {
    const position = token === undefined ? undefined : parseLogPosition(token);
    const now = Date.now();
    const usable = this.replicas.filter(
      (replica) =>
        replica.dataSource !== undefined &&
        now - replica.checkedAt <= CHECK_STALE_MS &&
        (token === undefined
          ? replica.lagMs <= this.options.maxLagMs
          : position !== undefined && replica.replayed >= position),
    );
    if (usable.length === 0) {
      this.reads.primary++;
      return undefined;
    }
    this.reads.replica++;
    this.next = (this.next + 1) % usable.length;
    return usable[this.next].dataSource!.manager;
  }

  /** Each replica's lag in seconds as last checked (undefined while unknown or unreachable), for the metrics. */
  lags(): Array<{ name: string; seconds: number | undefined }> {
    const now = Date.now();
    return this.replicas.map((replica) => ({
      name: replica.name,
      seconds:
        now - replica.checkedAt <= CHECK_STALE_MS && Number.isFinite(replica.lagMs) ? replica.lagMs / 1000 : undefined,
    }));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(
      this.replicas.map(async (replica) => {
        const dataSource = replica.dataSource;
        replica.dataSource = undefined;
        await dataSource?.destroy().catch(() => undefined);
      }),
    );
  }

  /** One round: the primary's position first, then each replica's against it. */
  private async check(): Promise<void> {
    await this.notePrimaryPosition();
    for (const replica of this.replicas) if (!replica.checking) void this.checkReplica(replica);
  }

  private async notePrimaryPosition(): Promise<void> {
    try {
      const [{ position }] = await withTimeout(
        this.primary.query<Array<{ position: string }>>(`SELECT pg_current_wal_lsn()::text AS position`),
      );
      const at = Date.now();
      this.primaryPositions.push({ at, position: parseLogPosition(position)! });
      while (this.primaryPositions[0].at < at - PRIMARY_HISTORY_MS) this.primaryPositions.shift();
    } catch {
      // The primary's own trouble is /health/ready's to report; the replicas keep their last lag meanwhile.
    }
  }

  private async checkReplica(replica: Replica): Promise<void> {
    replica.checking = true;
    try {
      const dataSource = replica.dataSource ?? (await withTimeout(this.open(replica)));
      replica.dataSource ??= dataSource;
      const [row] = await withTimeout(
        dataSource.query<Array<{ standby: boolean; replayed: string | null }>>(
          `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed`,
        ),
      );
      const replayed = parseLogPosition(row.replayed ?? undefined);
      // A server that is not (or no longer) a standby follows no primary: it is not read on.
      if (!row.standby || replayed === undefined) throw new Error('it is not a streaming standby');
      const at = Date.now();
      if (replica.up !== true) this.logger.log(`Reading on replica ${replica.name}`);
      replica.up = true;
      replica.replayed = replayed;
      replica.lagMs = this.lagOf(replayed, at);
      replica.checkedAt = at;
    } catch (error) {
      this.leaveOut(replica, error);
    } finally {
      replica.checking = false;
    }
  }

  /**
   * How long ago the primary was last seen at a position the replica has replayed: every write the replica
   * lacks is younger than that. Infinity when it lags behind every position kept.
   */
  private lagOf(replayed: bigint, at: number): number {
    for (let index = this.primaryPositions.length - 1; index >= 0; index--) {
      const seen = this.primaryPositions[index];
      if (seen.position <= replayed) return Math.max(0, at - seen.at);
    }
    return Infinity;
  }

  /** Its own data source, made once it answers: every statement it fails is asked of the primary. */
  private async open(replica: Replica): Promise<DataSource> {
    const dataSource = new DataSource({
      ...createDataSourceOptions(replica.url, this.options.poolSize, this.options.timeouts),
      migrations: [],
      entities: this.primary.options.entities,
    });
    await dataSource.initialize();
    const driver = dataSource.driver as PostgresDriver;
    driver.createQueryRunner = () =>
      new ReplicaQueryRunner(driver, (error, query, parameters, structured) =>
        this.askPrimary(replica, error, query, parameters, structured),
      );
    return dataSource;
  }

  private async askPrimary(
    replica: Replica,
    error: unknown,
    query: string,
    parameters: unknown[] | undefined,
    structured: boolean,
  ): Promise<unknown> {
    this.reads.fallbacks++;
    if (isReplicaUnreachable(error)) this.leaveOut(replica, error);
    const runner = this.primary.createQueryRunner();
    try {
      return await (structured ? runner.query(query, parameters, true) : runner.query(query, parameters));
    } finally {
      await runner.release();
    }
  }

  private leaveOut(replica: Replica, error: unknown): void {
    if (replica.up !== false) {
      this.logger.warn(`Replica ${replica.name} left out, reads go to the primary: ${(error as Error).message}`);
    }
    replica.up = false;
    replica.checkedAt = 0;
    replica.lagMs = Infinity;
  }
}

/** Host, port and database of a PostgreSQL URL: what may be shown of it. */
function nameOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
