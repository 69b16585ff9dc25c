import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { QueryRunner } from 'typeorm';

/**
 * Where the code is (src/ under ts-node and Jest, dist/ once built): each feature keeps the text of the SQL functions
 * it calls in `<feature>/sql/*.sql` beside its repository, and the build copies them (nest-cli.json).
 */
export const SQL_FUNCTIONS_ROOT = join(__dirname, '..');

/** One file of SQL functions: its path under the root (`ratings/sql/….sql`), its text and its SHA-256. */
export interface SqlFunctionFile {
  file: string;
  text: string;
  checksum: string;
}

/** One function file, by its path under `root`. */
export function readSqlFunctionFile(file: string, root = SQL_FUNCTIONS_ROOT): SqlFunctionFile {
  const text = readFileSync(join(root, ...file.split('/')), 'utf8');
  return { file, text, checksum: createHash('sha256').update(text).digest('hex') };
}

/** Every `sql/*.sql` file under `root`, in path order. */
export function readSqlFunctionFiles(root = SQL_FUNCTIONS_ROOT): SqlFunctionFile[] {
  const files: string[] = [];
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.sql') && directory.endsWith(`${sep}sql`)) {
        files.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  visit(root);
  return files.sort().map((file) => readSqlFunctionFile(file, root));
}

/**
 * For the migration that introduces a function (docs/adr/0001): runs each file, which holds `CREATE FUNCTION` of a
 * name no release has used (`employee_detail_v2`). Never a replacement: a running instance of the release before
 * calls the functions it knows, and a starting server must leave them as they are, so `CREATE OR REPLACE` is
 * refused here, and PostgreSQL refuses to create a name that exists.
 */
export async function createSqlFunctions(
  runner: QueryRunner,
  files: string[],
  root = SQL_FUNCTIONS_ROOT,
): Promise<void> {
  for (const { file, text } of files.map((each) => readSqlFunctionFile(each, root))) {
    if (/\bCREATE\s+OR\s+REPLACE\b/i.test(text)) {
      throw new Error(`SQL function file ${file} replaces a function: a changed function gets a new name`);
    }
    try {
      await runner.query(text);
    } catch (error) {
      throw new Error(`SQL function file ${file}: ${(error as Error).message}`, { cause: error });
    }
  }
}
