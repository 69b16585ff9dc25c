import { Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SealingPurpose, ServiceKeys } from '../encryption/service-keys';
import { PruneResult, RetentionStep } from './retention-step';

/** Rows read per transaction. */
const BATCH = 200;

/** A row holding secrets sealed at rest, as a re-sealing pass reads it. */
export interface SealedRow {
  organisationId: string;
  /** Its primary key: a pass walks the rows in its order. */
  id: string;
  /** What its values are bound to when sealed. */
  context: string;
  /** Its sealed values (null where it holds none), in the order replaceSealed takes them. */
  sealed: Array<Buffer | null>;
}

/** The table of one kind of sealed secret, as a re-sealing pass walks it across every organisation. */
export interface SealedRows {
  /** Up to `limit` rows after the one `after` names (from the first when null), in primary key order. */
  sealedAfter(after: string | null, limit: number, manager: EntityManager): Promise<SealedRow[]>;
  /** Writes `resealed` over the row's sealed values unless they changed since `row` was read; whether it did. */
  replaceSealed(
    organisationId: string,
    row: SealedRow,
    resealed: Array<Buffer | null>,
    manager: EntityManager,
  ): Promise<boolean>;
}

/**
 * Seals again, as ServiceKeys.seal seals now, every secret of one table sealed otherwise: under the previous
 * secret during a rotation, or with a derived key (which the previous release cannot open). A step of the retention
 * job (one instance at a time, every minute): a pass reads the table in batches by primary key without locking it,
 * and writes a row only if its values are still the ones read (else a later pass takes it). During a rotation's
 * grace a new pass starts at the next run, as instances not yet rolled still seal under the previous secret; outside
 * one, once a whole pass finds nothing to seal again this process makes no more (its secret is fixed while it runs).
 */
export abstract class SecretsResealingStep implements RetentionStep {
  private readonly logger = new Logger(this.constructor.name);
  /** The last row the pass under way read; null at the start of a pass. */
  private after: string | null = null;
  /** Whether the pass under way wrote or missed a row: then another pass checks the table again. */
  private changed = false;
  private finished = false;

  protected constructor(
    readonly name: string,
    private readonly purpose: SealingPurpose,
    private readonly keys: ServiceKeys,
    private readonly rows: SealedRows,
  ) {}

  async prune(now: Date, manager: EntityManager): Promise<PruneResult> {
    if (this.finished) return { removed: 0, more: false };
    const rows = await this.rows.sealedAfter(this.after, BATCH, manager);
    let resealed = 0;
    for (const row of rows) {
      const again = this.sealedAgain(row, now);
      if (!again) continue;
      this.changed = true;
      if (await this.rows.replaceSealed(row.organisationId, row, again, manager)) resealed++;
    }
    const more = rows.length === BATCH;
    this.after = more ? rows[rows.length - 1].id : null;
    if (!more) {
      this.finished = !this.changed && !this.keys.rotating(now);
      this.changed = false;
    }
    return { removed: resealed, more };
  }

  /** The row's values as seal() seals them now, or null when they already are or one opens under no accepted key. */
  private sealedAgain(row: SealedRow, now: Date): Array<Buffer | null> | null {
    try {
      const again = row.sealed.map((sealed) => sealed && this.keys.sealedAgain(this.purpose, sealed, row.context, now));
      return again.some(Boolean) ? again.map((each, index) => each ?? row.sealed[index]) : null;
    } catch (error) {
      // No accepted secret opens it, now or later; the others go on.
      this.logger.warn(`${row.id} of ${row.organisationId}: cannot be re-sealed (${(error as Error).message})`);
      return null;
    }
  }
}
