import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Database } from '../database/database';
import { PruneResult, RegisterRetentionStep, RetentionStep } from './retention-step';
import { RetentionRepository } from './retention.repository';

/** How often an instance prunes; also how late, at most, an expired previous webhook secret is erased. */
const PRUNE_INTERVAL_MS = 60_000;

/** Each step's result, by step name; null when another instance was pruning. */
export type RetentionReport = Record<string, PruneResult> | null;

/**
 * Removes what is past its age (events and their deliveries, expired previous webhook secrets), periodically,
 * on every instance that dispatches; an advisory lock lets one prune at a time. Started explicitly by the
 * server (createApp's `dispatch` option), never by the CLI.
 */
@Injectable()
export class RetentionJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RetentionJob.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private steps: RetentionStep[] = [];

  constructor(
    private readonly database: Database,
    private readonly retention: RetentionRepository,
    private readonly discovery: DiscoveryService,
  ) {}

  /** The steps are every provider marked @RegisterRetentionStep(), found once every module is loaded. */
  onApplicationBootstrap(): void {
    this.steps = this.discovery
      .getProviders({ metadataKey: RegisterRetentionStep.KEY })
      .map((wrapper) => wrapper.instance as RetentionStep);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.runInBackground(), PRUNE_INTERVAL_MS);
    this.runInBackground();
  }

  /** One run at `now`: every step once, in one transaction under the lock. */
  run(now: Date = new Date()): Promise<RetentionReport> {
    return this.database.transaction(async (manager) => {
      if (!(await this.retention.tryLock(manager))) return null;
      const report: Record<string, PruneResult> = {};
      for (const step of this.steps) report[step.name] = await step.prune(now, manager);
      return report;
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private runInBackground(): void {
    if (this.running) return;
    this.running = this.runUntilDone().finally(() => (this.running = undefined));
  }

  /** Runs again at once while a step stopped at its batch size, so a large backlog goes in bounded transactions. */
  private async runUntilDone(): Promise<void> {
    try {
      let report: RetentionReport;
      do {
        report = await this.run();
        const removed = Object.entries(report ?? {}).filter(([, result]) => result.removed > 0);
        if (removed.length > 0) {
          this.logger.log(
            `Retention removed ${removed.map(([name, result]) => `${result.removed} ${name}`).join(', ')}`,
          );
        }
      } while (this.timer && report && Object.values(report).some((result) => result.more));
    } catch (error) {
      // The database is unreachable or similar: the next interval tries again.
      this.logger.error(`Retention failed: ${(error as Error).message}`);
    }
  }
}
