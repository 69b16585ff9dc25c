import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the seed and the runner share: where the database is, and the secrets the seed made. */
export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/skills_bench';

/** The local HTTPS receiver the seeded webhook endpoints point at. */
export const RECEIVER_PORT = Number(process.env.BENCH_RECEIVER_PORT ?? 9443);

export const KEYS_FILE = join(__dirname, '.keys.json');
export const CERT_DIR = join(__dirname, '.certs');
export const RESULTS_DIR = join(__dirname, 'results');

export const ORGANISATIONS = 10;
/**
 * BENCH_SEED_EMPLOYEES (per organisation, at least 6,000 so the deep cursor pages exist) shrinks the seed
 * for a quick or loaded machine: request-path figures such as instruction counts hardly
 * depend on it, the search and page-500 scenarios' database work does. Seed and runner must agree on it.
 */
export const EMPLOYEES_PER_ORGANISATION = Number(process.env.BENCH_SEED_EMPLOYEES ?? 100_000);
export const SKILLS_PER_ORGANISATION = 300;
export const POSITIONS_PER_ORGANISATION = 1_000;
/** Events kept per organisation for GET /events (a few days of changes); the first one's also have deliveries. */
export const EVENTS_PER_ORGANISATION = 20_000;
export const ORGANISATION_NAME_PREFIX = 'bench-org-';
/** The name of the seed's API keys; ten of them mean the seed finished. */
export const SEED_KEY_LABEL = 'bench-seed';

/** Written by the seed, git-ignored: the clear keys exist nowhere else. */
export interface BenchKeys {
  /** SERVICE_SECRET_KEY (hex) that sealed the endpoints' secrets; the runner starts the service with it. */
  webhookSecretKey: string;
  organisations: Array<{ id: string; name: string; apiKey: string }>;
  /** Endpoints subscribed to skill.rated on the first organisation, with their clear secrets (the receiver checks signatures). */
  webhookEndpoints: Array<{ id: string; url: string; secret: string }>;
}

/** The keys the seed wrote; another seed's when `file` names its keys file. */
export function readBenchKeys(file = KEYS_FILE): BenchKeys {
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run bench:seed\` first`);
  return JSON.parse(readFileSync(file, 'utf8')) as BenchKeys;
}

/**
 * The service's settings in every bench process (runner and profile): the seeded database and secret key,
 * warnings only, no effective rate limit, and trust in the local receiver's self-signed certificate.
 */
export function serviceEnvironment(keys: BenchKeys): Record<string, string> {
  return {
    DATABASE_URL: BENCH_DATABASE_URL,
    SERVICE_SECRET_KEY: keys.webhookSecretKey,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    NODE_EXTRA_CA_CERTS: join(CERT_DIR, 'cert.pem'),
  };
}

export async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await step();
  console.log(`  ${label.padEnd(52)} ${((Date.now() - started) / 1000).toFixed(1).padStart(7)} s`);
  return result;
}
