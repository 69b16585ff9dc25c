import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { migrate } from '../../src/database/migrate';
import { MIGRATIONS } from '../../src/database/migrations';
import { createSqlFunctions, readSqlFunctionFiles } from '../../src/database/sql-functions';
import { recreateDatabase } from '../support/global-setup';
import { previousRelease } from '../support/previous-release';
import { itIfPostgres } from '../support/requirements';
import { functionsOf, withClient } from '../support/sql-functions';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');

/** Each function a file creates, by name, with the body (between its `$$`) the file gives it. */
function bodiesOf(text: string): Array<{ name: string; body: string }> {
  return [...text.matchAll(/CREATE (?:OR REPLACE )?FUNCTION (\w+)\([\s\S]*?\$\$([\s\S]*?)\$\$/g)].map(
    ([, name, body]) => ({ name, body }),
  );
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The function files (`src/…/sql/*.sql`) of the previous release, by path under src/, with their text then. */
function releasedFunctionFiles(): Map<string, string> {
  const { commit } = previousRelease();
  try {
    git('cat-file', '-e', `${commit}^{commit}`);
  } catch {
    throw new Error(
      `The previous release's commit ${commit} is not in this clone (a shallow one?): git fetch --unshallow`,
    );
  }
  const paths = git('ls-tree', '-r', '--name-only', commit, '--', 'src')
    .split('\n')
    .filter((path) => /^src\/.+\/sql\/[^/]+\.sql$/.test(path));
  return new Map(paths.map((path) => [path.slice('src/'.length), git('show', `${commit}:${path}`)]));
}

/** The source of every migration, to find the one that names a function file. */
function migrationSources(): string {
  const directory = join(ROOT, 'src', 'database', 'migrations');
  return readdirSync(directory)
    .map((file) => readFileSync(join(directory, file), 'utf8'))
    .join('\n');
}

describe('SQL functions, one file each, created by migrations', () => {
  it('gives every function the text of its file, and records the files of release 4 as release 4 does', async () => {
    const files = readSqlFunctionFiles();
    expect(files.length).toBeGreaterThanOrEqual(9);
    await withClient(process.env.TEST_DATABASE_URL!, async (client) => {
      for (const { text } of files) {
        for (const { name, body } of bodiesOf(text)) {
          const stored = await client.query<{ prosrc: string }>('SELECT prosrc FROM pg_proc WHERE proname = $1', [
            name,
          ]);
          expect({ name, bodies: stored.rows }).toEqual({ name, bodies: [{ prosrc: body }] });
        }
      }
      // What an instance of release 4 compares its files with at its start: equal, so it applies none.
      const recorded = await client.query<{ file: string; checksum: string }>(
        'SELECT file, checksum FROM sql_function_files ORDER BY file',
      );
      const released = releasedFunctionFiles();
      expect(recorded.rows).toEqual(
        files.filter(({ file }) => released.has(file)).map(({ file, checksum }) => ({ file, checksum })),
      );
    });
  });

  it('keeps each function file of the previous release as it was released', () => {
    const released = releasedFunctionFiles();
    expect(released.size).toBeGreaterThanOrEqual(9);
    const current = new Map(readSqlFunctionFiles().map(({ file, text }) => [file, text]));
    // A change is a new file with a new name (docs/adr/0001): this one stays, byte for byte.
    const changed = [...released].filter(([file, text]) => current.get(file) !== text).map(([file]) => file);
    expect({ changed }).toEqual({ changed: [] });
  });

  it('creates each function file added since under a versioned name, in the migration that names it', () => {
    const released = releasedFunctionFiles();
    const sources = migrationSources();
    for (const { file, text } of readSqlFunctionFiles().filter(({ file }) => !released.has(file))) {
      const names = bodiesOf(text).map(({ name }) => name);
      const stem = file.slice(file.lastIndexOf('/') + 1, -'.sql'.length);
      expect({
        file,
        names,
        replaces: /\bCREATE\s+OR\s+REPLACE\b/i.test(text),
        named: sources.includes(`'${file}'`),
      }).toEqual({ file, names: [stem.replaceAll('-', '_')], replaces: false, named: true });
      expect(names[0]).toMatch(/_v\d+$/);
    }
  });

  // A scratch database of its own: the function made here must not reach the other files' database.
  itIfPostgres(
    'never replaces a function at a start; a new version comes beside the old one, by its migration',
    async () => {
      const url = new URL(process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL!);
      url.pathname = `/${decodeURIComponent(url.pathname.slice(1))}_functions_${process.pid}`;
      const scratch = url.toString();
      await recreateDatabase(scratch);
      const root = mkdtempSync(join(tmpdir(), 'skills-sql-functions-'));
      const write = (file: string, text: string) => {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), text);
      };
      write(
        'skills/sql/skill-name-order-v2.sql',
        `CREATE FUNCTION skill_name_order_v2(name varchar) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT convert_to(upper(name), 'UTF8')
$$;`,
      );
      write(
        'skills/sql/skill-name-order-in-place.sql',
        `CREATE OR REPLACE FUNCTION skill_name_order(name varchar) RETURNS bytea LANGUAGE sql STABLE AS $$
SELECT convert_to(upper(name), 'UTF8')
$$;`,
      );
      const creating = (file: string, timestamp: number) => {
        const name = `Create${file.replace(/\W/g, '')}${timestamp}`;
        return {
          [name]: class implements MigrationInterface {
            name = name;
            up = (runner: QueryRunner) => createSqlFunctions(runner, [file], root);
            down = async () => undefined;
          },
        }[name];
      };
      const orderKey = (fn: string, value: string) =>
        withClient(scratch, async (client) => {
          const { rows } = await client.query<{ key: Buffer }>(`SELECT ${fn}($1) AS key`, [value]);
          return rows[0].key.toString('utf8');
        });
      try {
        expect(await migrate(scratch)).toEqual(MIGRATIONS.map((migration) => new migration().name));
        const first = await functionsOf(scratch);
        expect(first.map(({ name }) => name)).toEqual(expect.arrayContaining(['employee_detail', 'webhook_claim']));

        // A second instance starting: nothing to apply, and not one function written again.
        expect(await migrate(scratch)).toEqual([]);
        expect(await functionsOf(scratch)).toEqual(first);

        const version2 = creating('skills/sql/skill-name-order-v2.sql', 9_999_999_999_998);
        expect(await migrate(scratch, [...MIGRATIONS, version2])).toEqual([new version2().name]);
        const second = await functionsOf(scratch);
        expect(second.filter(({ name }) => name !== 'skill_name_order_v2')).toEqual(first);
        expect(await orderKey('skill_name_order', 'Go')).toBe('go');
        expect(await orderKey('skill_name_order_v2', 'Go')).toBe('GO');
        expect(await migrate(scratch, [...MIGRATIONS, version2])).toEqual([]);

        // A function changed in place is refused, and its migration leaves everything as it was.
        const inPlace = creating('skills/sql/skill-name-order-in-place.sql', 9_999_999_999_999);
        const typeormLog = jest.spyOn(console, 'log').mockImplementation(() => undefined); // its note of the failure
        try {
          await expect(migrate(scratch, [...MIGRATIONS, version2, inPlace])).rejects.toThrow(/replaces a function/);
        } finally {
          typeormLog.mockRestore();
        }
        expect(await functionsOf(scratch)).toEqual(second);
        expect(await orderKey('skill_name_order', 'Go')).toBe('go');
      } finally {
        rmSync(root, { recursive: true, force: true });
        await recreateDatabase(scratch, true);
      }
    },
  );
});
