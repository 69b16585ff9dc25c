import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { QueryRunner } from 'typeorm';

/**
 * Where the code is (src/ under ts-node and Jest, dist/ once built): each feature keeps the current text of the SQL
 * functions it calls in `<feature>/sql/*.sql` beside its repository, and the build copies them (nest-cli.json).
 */
export const SQL_FUNCTIONS_ROOT = join(__dirname, '..');

/** One file of SQL functions: its path under the root (its name in sql_function_files), its text and its SHA-256. */
export interface SqlFunctionFile {
  file: string;
  text: string;
  checksum: string;
}

/** Every `sql/*.sql` file under `root`, in path order (the order they are applied in). */
export function readSqlFunctionFiles(root: string): SqlFunctionFile[] {
  const files: SqlFunctionFile[] = [];
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.sql') && directory.endsWith(`${sep}sql`)) {
        const text = readFileSync(path, 'utf8');
        const file = relative(root, path).split(sep).join('/');
        files.push({ file, text, checksum: createHash('sha256').update(text).digest('hex') });
      }
    }
  };
  visit(root);
  return files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * Runs every function file under `root` whose text is not the one last applied (by its SHA-256 in
 * sql_function_files), all in one transaction, so other instances see every function of a release change at once;
 * forgets the files that are gone. A file holds `CREATE OR REPLACE FUNCTION` statements (a changed signature is a
 * versioned migration's DROP first). Answers the files it ran. The caller holds the migration lock.
 */
export async function applySqlFunctions(runner: QueryRunner, root: string): Promise<string[]> {
  const files = readSqlFunctionFiles(root);
  const recorded = (await runner.query('SELECT file, checksum FROM sql_function_files')) as Array<{
    file: string;
    checksum: string;
  }>;
  const applied = new Map(recorded.map(({ file, checksum }) => [file, checksum]));
  const changed = files.filter(({ file, checksum }) => applied.get(file) !== checksum);
  const gone = [...applied.keys()].filter((file) => !files.some((each) => each.file === file));
  if (changed.length === 0 && gone.length === 0) return [];
  await runner.startTransaction();
  let running = '';
  try {
    for (const { file, text, checksum } of changed) {
      running = file;
      await runner.query(text);
      await runner.query(
        `INSERT INTO sql_function_files (file, checksum, applied_at) VALUES ($1, $2, now())
         ON CONFLICT (file) DO UPDATE SET checksum = excluded.checksum, applied_at = excluded.applied_at`,
        [file, checksum],
      );
    }
    running = '';
    if (gone.length > 0) await runner.query('DELETE FROM sql_function_files WHERE file = ANY ($1)', [gone]);
    await runner.commitTransaction();
  } catch (error) {
    await runner.rollbackTransaction();
    if (!running) throw error;
    throw new Error(`SQL function file ${running}: ${(error as Error).message}`, { cause: error });
  }
  return changed.map(({ file }) => file);
}
