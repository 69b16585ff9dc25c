import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { sealSecret } from '../encryption/secret-box';
import { deriveKeyWithId, ServiceKeys } from '../encryption/service-keys';
import { SealedRow, SealedRows, SecretsResealingStep } from './secrets-resealing.step';

const OLD = randomBytes(32);
const NEW = randomBytes(32);
const NOW = new Date('2026-11-28T12:00:00.000Z');
const manager = {} as EntityManager;

class TestResealingStep extends SecretsResealingStep {
  constructor(keys: ServiceKeys, rows: SealedRows) {
    super('test secrets re-sealed', 'webhook-secrets', keys, rows);
  }
}

/** A table in memory; `changedMeanwhile` rows are changed by someone else between a read and a write. */
class MemoryRows implements SealedRows {
  reads = 0;
  changedMeanwhile = new Set<string>();

  constructor(readonly rows: SealedRow[]) {}

  async sealedAfter(after: string | null, limit: number): Promise<SealedRow[]> {
    this.reads++;
    return this.rows.filter((row) => after === null || row.id > after).slice(0, limit);
  }

  async replaceSealed(_organisationId: string, row: SealedRow, resealed: Array<Buffer | null>): Promise<boolean> {
    if (this.changedMeanwhile.delete(row.id)) return false;
    this.rows[this.rows.findIndex((each) => each.id === row.id)] = { ...row, sealed: resealed };
    return true;
  }
}

const row = (index: number, sealed: Array<Buffer | null>): SealedRow => {
  const id = `row-${String(index).padStart(4, '0')}`;
  return { organisationId: 'org', id, context: id, sealed };
};

const keysOf = (grace?: Date) =>
  new ServiceKeys(
    grace
      ? { serviceSecretKey: NEW, serviceSecretKeyPrevious: OLD, serviceSecretGraceUntil: grace }
      : { serviceSecretKey: NEW },
  );

/** Runs the step as the retention job does: again at once while it says there is more. */
async function run(step: SecretsResealingStep, now = NOW): Promise<number> {
  let removed = 0;
  for (let result = { removed: 0, more: true }; result.more; removed += result.removed) {
    result = await step.prune(now, manager);
  }
  return removed;
}

describe('SecretsResealingStep', () => {
  it('seals again, in batches, what the previous secret or a derived key sealed, and leaves the rest', async () => {
    const derived = deriveKeyWithId(NEW, 'webhook-secrets');
    const rows = new MemoryRows(
      Array.from({ length: 450 }, (_, index) => {
        const id = `row-${String(index).padStart(4, '0')}`;
        if (index % 3 === 0) return row(index, [sealSecret(OLD, 's', id), null]);
        if (index % 3 === 1)
          return row(index, [sealSecret(derived.key, 's', id, derived.id), sealSecret(NEW, 'p', id)]);
        return row(index, [sealSecret(NEW, 's', id), null]);
      }),
    );
    const keys = keysOf(new Date(NOW.getTime() + 60_000));

    expect(await run(new TestResealingStep(keys, rows))).toBe(300);
    for (const { sealed, context } of rows.rows) {
      for (const value of sealed) if (value) expect(keys.sealedWithCurrent(value, context)).toBe(true);
    }
  });

  it('outside a rotation, stops once a whole pass found nothing to seal again', async () => {
    const derived = deriveKeyWithId(NEW, 'webhook-secrets');
    const rows = new MemoryRows([row(1, [sealSecret(derived.key, 's', 'row-0001', derived.id)])]);
    const step = new TestResealingStep(keysOf(), rows);

    expect(await run(step)).toBe(1);
    expect(await run(step)).toBe(0);
    const reads = rows.reads;
    expect(await run(step)).toBe(0);
    expect(rows.reads).toBe(reads);
  });

  it('during a grace, reads the table again at every run: instances not yet rolled seal under the old secret', async () => {
    const rows = new MemoryRows([row(1, [sealSecret(NEW, 's', 'row-0001')])]);
    const step = new TestResealingStep(keysOf(new Date(NOW.getTime() + 60_000)), rows);
    await run(step);
    await run(step);

    rows.rows.push(row(2, [sealSecret(OLD, 's', 'row-0002')]));
    expect(await run(step)).toBe(1);
  });

  it('takes at the next pass a row changed between its read and its write, and skips one no key opens', async () => {
    const rows = new MemoryRows([
      row(1, [sealSecret(randomBytes(32), 's', 'row-0001')]),
      row(2, [sealSecret(OLD, 's', 'row-0002')]),
    ]);
    rows.changedMeanwhile.add('row-0002');
    const step = new TestResealingStep(keysOf(new Date(NOW.getTime() + 60_000)), rows);

    expect(await run(step)).toBe(0);
    expect(await run(step)).toBe(1);
  });
});
