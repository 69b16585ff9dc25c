import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { migrate } from '../../src/database/migrate';
import { MIGRATIONS } from '../../src/database/migrations';
import { readSqlFunctionFiles, SQL_FUNCTIONS_ROOT } from '../../src/database/sql-functions';
import { recreateDatabase } from '../support/global-setup';
import { itIfPostgres } from '../support/requirements';

jest.setTimeout(120_000);

/** Runs `work` with a client of the database at `url`. */
async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Each function a file creates, by name, with the body (between its `$$`) the file gives it. */
function bodiesOf(text: string): Array<{ name: string; body: string }> {
  return [...text.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\([\s\S]*?\$\$([\s\S]*?)\$\$/g)].map(([, name, body]) => ({
    name,
    body,
  }));
}

describe('SQL functions, one file each', () => {
  it("gives every function the text of its file, and records each file with its text's checksum", async () => {
    const files = readSqlFunctionFiles(SQL_FUNCTIONS_ROOT);
    expect(files.length).toBeGreaterThanOrEqual(9);
    await withClient(process.env.TEST_DATABASE_URL!, async (client) => {
      const recorded = await client.query<{ file: string; checksum: string }>(
        'SELECT file, checksum FROM sql_function_files ORDER BY file',
      );
      expect(recorded.rows).toEqual(files.map(({ file, checksum }) => ({ file, checksum })));
      for (const { text } of files) {
        for (const { name, body } of bodiesOf(text)) {
          const stored = await client.query<{ prosrc: string }>('SELECT prosrc FROM pg_proc WHERE proname = $1', [
            name,
          ]);
          expect(stored.rows).toEqual([{ prosrc: body }]);
        }
      }
    });
  });

  // A scratch database of its own: the function changed here must not reach the other files' database.
  itIfPostgres('applies a changed function file once, at the next start, and not at the one after', async () => {
    const url = new URL(process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL!);
    url.pathname = `/${decodeURIComponent(url.pathname.slice(1))}_functions_${process.pid}`;
    const scratch = url.toString();
    await recreateDatabase(scratch);
    const root = mkdtempSync(join(tmpdir(), 'skills-sql-functions-'));
    const files = readSqlFunctionFiles(SQL_FUNCTIONS_ROOT);
    for (const { file, text } of files) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    const orderKey = (name: string) =>
      withClient(scratch, async (client) => {
        const { rows } = await client.query<{ key: Buffer }>('SELECT skill_name_order($1) AS key', [name]);
        return rows[0].key.toString('utf8');
      });
    try {
      const migrations = MIGRATIONS.map((migration) => new migration().name);
      expect(await migrate(scratch, root)).toEqual([...migrations, ...files.map(({ file }) => file)]);
      expect(await migrate(scratch, root)).toEqual([]);
      expect(await orderKey('Go')).toBe('go');

      const changed = 'skills/sql/skill-name-order.sql';
      const text = readFileSync(join(root, changed), 'utf8');
      expect(text).toContain('lower(name)');
      writeFileSync(join(root, changed), text.replace('lower(name)', 'upper(name)'));
      expect(await migrate(scratch, root)).toEqual([changed]);
      expect(await orderKey('Go')).toBe('GO');
      expect(await migrate(scratch, root)).toEqual([]);

      // A file that is gone is forgotten: put back, it is applied again.
      rmSync(join(root, changed));
      expect(await migrate(scratch, root)).toEqual([]);
      writeFileSync(join(root, changed), text);
      expect(await migrate(scratch, root)).toEqual([changed]);
      expect(await orderKey('Go')).toBe('go');
    } finally {
      rmSync(root, { recursive: true, force: true });
      await recreateDatabase(scratch, true);
    }
  });
});
