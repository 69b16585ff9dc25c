import { readFile, writeFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { Command } from 'commander';
import { OrganisationsService } from '../auth/organisations.service';
import { BULK_MAX_ITEMS, BulkMetaResponse, BulkResult } from '../bulk/bulk';
import { cliWrite } from '../database/write-context';
import { EmployeesBulkService } from '../employees/employees-bulk.service';
import { ValidationError } from '../errors/errors';
import { RatingsBulkService } from '../ratings/ratings-bulk.service';
import { SkillsBulkService } from '../skills/skills-bulk.service';
import { CliContext } from './cli-context';
import { parseCsv } from './csv';
import { CliOutput } from './output';

/** What one import command loads, and how: the bulk service of its endpoint, and the CSV columns that are not text. */
interface ImportKind {
  resource: string;
  send(app: INestApplicationContext, organisationId: string, items: unknown[]): Promise<BulkResult>;
  integers: string[];
  booleans: string[];
}

const KINDS: ImportKind[] = [
  {
    resource: 'employees',
    send: (app, organisationId, items) => app.get(EmployeesBulkService).upsert(organisationId, items, cliWrite()),
    integers: [],
    booleans: ['isHRTeamMember'],
  },
  {
    resource: 'skills',
    send: (app, organisationId, items) => app.get(SkillsBulkService).upsert(organisationId, items, cliWrite()),
    integers: ['ratingScaleMin', 'ratingScaleMax'],
    booleans: [],
  },
  {
    resource: 'ratings',
    send: (app, organisationId, items) => app.get(RatingsBulkService).create(organisationId, items, cliWrite()),
    integers: ['score'],
    booleans: [],
  },
];

export interface ImportSummary extends BulkMetaResponse {
  /** Where the failed items were written; null when none failed. */
  failuresFile: string | null;
}

/** A failed item as the failures file lists it: its place in the input (from 0), the item, and why. */
interface ImportFailure {
  index: number;
  item: unknown;
  error: unknown;
}

export function registerImportCommands(
  program: Command,
  context: CliContext,
  output: () => CliOutput,
  progress: (done: number, total: number) => void,
): void {
  for (const kind of KINDS) {
    program
      .command(kind.resource)
      .description(`work on ${kind.resource} in bulk`)
      .command('import <file>')
      .description(
        `create or update ${kind.resource} from a JSON array or a CSV file (a header row of the JSON field names), ` +
          `${BULK_MAX_ITEMS} at a time through the service of POST /${kind.resource}/bulk`,
      )
      .requiredOption('--org <id or name>', 'the organisation')
      .option('--failures <file>', 'where to write the failed items (default: <file>.failures.json)')
      .action(async (file: string, options: { org: string; failures?: string }) => {
        const path = resolve(file);
        const items = await readItems(path, kind);
        const summary = await context.withApp(async (app) => {
          const organisation = await app.get(OrganisationsService).findByIdOrName(options.org);
          return importItems(
            app,
            kind,
            organisation.id,
            items,
            resolve(options.failures ?? `${path}.failures.json`),
            progress,
          );
        });
        const { created, updated, unchanged, failed, failuresFile } = summary;
        output().result(
          summary,
          `Imported ${kind.resource}: ${created} created, ${updated} updated, ${unchanged} unchanged, ${failed} failed` +
            (failuresFile ? ` (see ${failuresFile})` : ''),
        );
      });
  }
}

async function importItems(
  app: INestApplicationContext,
  kind: ImportKind,
  organisationId: string,
  items: unknown[],
  failuresFile: string,
  progress: (done: number, total: number) => void,
): Promise<ImportSummary> {
  const counts: BulkMetaResponse = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  const failures: ImportFailure[] = [];
  progress(0, items.length);
  for (let start = 0; start < items.length; start += BULK_MAX_ITEMS) {
    const batch = items.slice(start, start + BULK_MAX_ITEMS);
    const result = await kind.send(app, organisationId, batch);
    for (const status of ['created', 'updated', 'unchanged', 'failed'] as const) counts[status] += result.meta[status];
    for (const { index, error } of result.items) {
      if (error) failures.push({ index: start + index, item: batch[index], error });
    }
    progress(start + batch.length, items.length);
  }
  if (failures.length > 0) await writeFile(failuresFile, `${JSON.stringify(failures, null, 2)}\n`);
  return { ...counts, failuresFile: failures.length > 0 ? failuresFile : null };
}

/** The items of a .json file (an array) or a .csv file (one per record, typed by the kind's columns). */
async function readItems(path: string, kind: ImportKind): Promise<unknown[]> {
  const text = await readFile(path, 'utf8');
  if (extname(path).toLowerCase() === '.csv') return parseCsv(text).map((record) => typed(record, kind));
  const items: unknown = JSON.parse(text);
  if (!Array.isArray(items)) throw new ValidationError(`${path} must hold a JSON array of ${kind.resource}`);
  return items as unknown[];
}

/** A CSV record with its integer and boolean columns converted; a value that is neither stays text, for the item's validation to name. */
function typed(record: Record<string, string>, kind: ImportKind): Record<string, unknown> {
  const item: Record<string, unknown> = { ...record };
  for (const field of kind.integers) {
    if (/^-?\d+$/.test(record[field] ?? '')) item[field] = Number(record[field]);
  }
  for (const field of kind.booleans) {
    if (record[field] === 'true' || record[field] === 'false') item[field] = record[field] === 'true';
  }
  return item;
}
