import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { has } from './requirements';
import { freePort } from './server-process';

const run = promisify(execFile);
const SCRIPT = join(__dirname, '..', '..', 'scripts', 'replica.sh');

/** Why a replica cannot be made here, or undefined when it can (scripts/replica.sh, as root or not). */
export function whyNoReplica(): string | undefined {
  if (!has('postgres')) return 'needs a PostgreSQL server to copy; the run uses the embedded database';
  const bin = readdirSync('/usr/lib/postgresql', { withFileTypes: true })
    .map((entry) => join('/usr/lib/postgresql', entry.name, 'bin', 'pg_basebackup'))
    .find((path) => existsSync(path));
  const onPath = spawnSync('sh', ['-c', 'command -v pg_basebackup'], { encoding: 'utf8' }).status === 0;
  if (!bin && !onPath) return 'needs pg_basebackup and pg_ctl (the PostgreSQL server package) to make a replica';
  return undefined;
}

/** A hot standby of the test server, of this test file's own, on a free port (scripts/replica.sh). */
export class TestReplica {
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<TestReplica> {
    const dir = join(mkdtempSync(join(tmpdir(), 'skills-replica-')), 'replica');
    const port = await freePort();
    await run(SCRIPT, ['start', dir, String(port), `test_replica_${port}`], { env: primaryEnv() });
    return new TestReplica(port, dir);
  }

  /** `databaseUrl` (the primary's) with this replica's host and port. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.host = `127.0.0.1:${this.port}`;
    return url.toString();
  }

  /** Runs `sql` on the replica's postgres database (pg_wal_replay_pause(), pg_last_wal_replay_lsn()). */
  async query<T>(sql: string): Promise<T[]> {
    const client = new Client({ host: '127.0.0.1', port: this.port, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async pauseReplay(): Promise<void> {
    await this.query('SELECT pg_wal_replay_pause()');
  }

  async resumeReplay(): Promise<void> {
    await this.query('SELECT pg_wal_replay_resume()');
  }

  /** Stops the server (its copy stays; `restart` starts it again). */
  async stop(): Promise<void> {
    await run(SCRIPT, ['stop', this.dir], { env: primaryEnv() });
  }

  async restart(): Promise<void> {
    await run(SCRIPT, ['start', this.dir, String(this.port)], { env: primaryEnv() });
  }

  /** Stops it and deletes its copy. */
  async remove(): Promise<void> {
    await run(SCRIPT, ['remove', this.dir], { env: primaryEnv() });
  }
}

/** The test server itself (not PgBouncer in front of it), as scripts/replica.sh's PRIMARY_* variables. */
function primaryEnv(): NodeJS.ProcessEnv {
  const url = new URL(process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL!);
  return {
    ...process.env,
    PRIMARY_HOST: url.hostname,
    PRIMARY_PORT: url.port || '5432',
    PRIMARY_USER: decodeURIComponent(url.username) || 'postgres',
  };
}
