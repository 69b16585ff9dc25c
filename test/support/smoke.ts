import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SERVICE_SECRET_KEY } from './app';
import { runCliProcess } from './server-process';
import { testCertificate } from './tls';
import { waitUntil } from './wait-until';
import { verifyStandardSignature, WebhookReceiver } from './webhook-receiver';

/**
 * The environment of a server process (of any release) and of this build's command line on `databaseUrl`: one
 * service secret, so every instance opens the others' webhook secrets, and the run's test certificate trusted, the way
 * an operator adds a private CA, so they deliver to the smoke's receiver.
 */
export function smokeEnv(databaseUrl: string): NodeJS.ProcessEnv {
  // Behind PgBouncer (TEST_PGBOUNCER=true) the migration lock of the command line takes the direct URL, as a server's does.
  const direct = databaseUrl === process.env.TEST_DATABASE_URL ? process.env.TEST_DATABASE_DIRECT_URL : undefined;
  return {
    DATABASE_URL: databaseUrl,
    ...(direct && { DATABASE_DIRECT_URL: direct }),
    SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
    // The secret's name until release 5, the one the previous release reads; the same value, so both agree.
    WEBHOOK_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    NODE_EXTRA_CA_CERTS: trustedCertificateFile(),
    LOG_LEVEL: 'warn',
  };
}

let caFile: string | undefined;

/** The run's test certificate in a file of this worker's, written once. */
function trustedCertificateFile(): string {
  if (!caFile) {
    caFile = join(mkdtempSync(join(tmpdir(), 'smoke-ca-')), 'receiver.pem');
    writeFileSync(caFile, testCertificate().cert);
  }
  return caFile;
}

export interface SmokeTarget {
  /** The instances' origins (`http://127.0.0.1:<port>`), all on one database, of one release or of two. */
  origins: string[];
  /** smokeEnv() of their database: this build's command line makes the smoke's organisation and key there. */
  env: NodeJS.ProcessEnv;
}

interface Answer<T = any> {
  status: number;
  data: T;
  meta?: Record<string, unknown>;
}

async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Record<string, any>> {
  const result = await runCliProcess([...args, '--json'], env);
  if (result.code !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, any>;
}

const mark = () => Math.random().toString(36).slice(2, 10);

/**
 * The smoke subset of the e2e suite, over HTTP against server processes whichever release each runs: writes (an
 * employee with an Idempotency-Key, skills, a rating), reads (an employee with its skills in name order, a search, the
 * skills, a list's total), webhooks delivered and signed to a real receiver, and the events feed. With several
 * instances each writes and each reads what the others wrote, so two releases meet in every SQL function.
 */
export function describeSmoke(name: string, target: () => SmokeTarget): void {
  describe(name, () => {
    const receiver = new WebhookReceiver(testCertificate());
    let bearer: string;
    let origins: string[];

    beforeAll(async () => {
      ({ origins } = target());
      await receiver.start();
      const organisation = await cli(target().env, 'org', 'create', `Smoke ${mark()}`);
      bearer = `Bearer ${(await cli(target().env, 'api-key', 'create', '--org', organisation.id as string)).key}`;
    });
    afterAll(() => receiver.stop());

    async function call<T = any>(
      origin: string,
      method: string,
      path: string,
      body?: object,
      headers: Record<string, string> = {},
    ): Promise<Answer<T>> {
      const response = await fetch(`${origin}/api/v1${path}`, {
        method,
        headers: { Authorization: bearer, ...(body && { 'Content-Type': 'application/json' }), ...headers },
        body: body && JSON.stringify(body),
      });
      const parsed = (await response.json()) as { data: T; meta?: Record<string, unknown> };
      return { status: response.status, data: parsed.data, meta: parsed.meta };
    }

    /** POST that must answer 201: its resource. */
    async function create<T = any>(origin: string, path: string, body: object, headers = {}): Promise<T> {
      const answer = await call<T>(origin, 'POST', path, body, headers);
      if (answer.status !== 201) throw new Error(`POST ${origin}${path}: ${answer.status} ${JSON.stringify(answer)}`);
      return answer.data;
    }

    const employee = (lastName = `Smoke${mark()}`) => {
      const number = `smoke-${mark()}`;
      return { personnelNumber: number, firstName: 'Ada', lastName, businessEmail: `${number}@example.com` };
    };

    it('writes on one instance what every instance reads: employees, skills, ratings, searches, totals', async () => {
      const writer = origins[0];
      const other = origins[origins.length - 1];
      const key = { 'Idempotency-Key': randomUUID() };
      const fields = employee();
      const created = await create<{ id: string }>(writer, '/employees', fields, key);
      // The same key on the other instance: the kept answer, not a second employee.
      expect(await create(other, '/employees', fields, key)).toEqual(created);
      const zeta = await create<{ id: string }>(other, '/skills', { name: `Zeta ${mark()}` });
      const alpha = await create<{ id: string }>(writer, '/skills', { name: `alpha ${mark()}` });
      await create(writer, `/employees/${created.id}/ratings`, {
        skillId: zeta.id,
        score: 4,
        ratingType: 'SELF_ASSESMENT',
      });
      await create(other, `/employees/${created.id}/ratings`, {
        skillId: alpha.id,
        score: 2,
        ratingType: 'SELF_ASSESMENT',
      });
      await create(other, `/employees/${created.id}/ratings`, {
        skillId: zeta.id,
        score: 5,
        ratingType: 'MANAGER_EVALUATION',
      });

      for (const origin of origins) {
        const detail = await call(origin, 'GET', `/employees/${created.id}`);
        expect({ origin, status: detail.status, lastName: detail.data.lastName }).toEqual({
          origin,
          status: 200,
          lastName: fields.lastName,
        });
        expect(
          detail.data.skills.map((skill: any) => [
            skill.skillId,
            skill.latestRating.score,
            skill.latestRating.ratingType,
          ]),
        ).toEqual([
          [alpha.id, 2, 'SELF_ASSESMENT'],
          [zeta.id, 5, 'MANAGER_EVALUATION'],
        ]);
        const found = await call(origin, 'GET', `/employees?search=${encodeURIComponent(fields.lastName)}`);
        expect(found.data.map((each: { id: string }) => each.id)).toEqual([created.id]);
        const skills = await call(origin, 'GET', '/skills?limit=100');
        expect(skills.data.map((skill: { id: string }) => skill.id)).toEqual([zeta.id, alpha.id]);
        const active = await call(origin, 'GET', '/employees?isActive=true');
        expect({ origin, total: active.meta?.total }).toEqual({ origin, total: 1 });
      }
    });

    it('delivers the changes each instance writes to a real receiver, signed', async () => {
      const path = `/smoke-${mark()}`;
      const secret = `whsec-smoke-${mark()}`;
      await create(origins[0], '/webhooks', { url: receiver.url(path), events: ['employee.created'], secret });
      const ids: string[] = [];
      for (const origin of origins) ids.push((await create<{ id: string }>(origin, '/employees', employee())).id);

      const received = await receiver.waitFor(path, ids.length, 20_000);
      expect(
        received.map(({ body }) => (JSON.parse(body.toString('utf8')) as { data: { id: string } }).data.id).sort(),
      ).toEqual([...ids].sort());
      for (const delivery of received) {
        expect(verifyStandardSignature(delivery, secret)).toEqual({ library: true, byHand: true });
      }
    });

    it('lists every change in the feed, in the order written, alike on every instance', async () => {
      const ids: string[] = [];
      for (const origin of [...origins, ...origins]) {
        ids.push((await create<{ id: string }>(origin, '/employees', employee())).id);
      }
      /** The whole feed as `origin` lists it, page after page. */
      const feedOf = async (origin: string) => {
        const events: Array<{ id: string; event: string; data: { id: string } }> = [];
        for (let after: string | undefined; ;) {
          const page = await call(origin, 'GET', `/events?limit=100${after ? `&after=${after}` : ''}`);
          expect(page.status).toBe(200);
          events.push(...page.data);
          if (!page.meta?.hasMore) return events;
          after = page.meta.nextAfter as string;
        }
      };
      const createdIn = (feed: Array<{ event: string; data: { id: string } }>) =>
        feed
          .filter(({ event, data }) => event === 'employee.created' && ids.includes(data.id))
          .map(({ data }) => data.id);
      // An event is listed once every transaction older than its own has ended (docs/api-decisions.md, "Events feed").
      const first = await waitUntil(async () => {
        const feed = await feedOf(origins[0]);
        return createdIn(feed).length === ids.length && feed;
      }, 'the feed lists every employee created');
      expect(createdIn(first)).toEqual(ids);
      for (const origin of origins.slice(1)) expect((await feedOf(origin)).slice(0, first.length)).toEqual(first);
    });
  });
}
