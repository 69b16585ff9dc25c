/**
 * Erasure (issue 38): the time POST /employees/{id}/erase's transaction takes for an employee named by
 * BENCH_ERASE_EVENTS (10,000) events in the feed, each with a webhook delivery, among another organisation's
 * as many, with a kept Idempotency-Key response. The events are a PATCH's employee.updated (with `changes`)
 * and skill.rated, published through the service's own DomainEvents, BATCH at a time. Needs PostgreSQL:
 * BENCH_DATABASE_URL, else 127.0.0.1:5432, on a database of its own (made anew, dropped afterwards).
 * Run: npm run bench:erase
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/app.factory';
import { OrganisationsService } from '../src/auth/organisations.service';
import { loadConfig } from '../src/config/config';
import { Database } from '../src/database/database';
import { migrate } from '../src/database/migrate';
import { cliWrite } from '../src/database/write-context';
import { EmployeesService } from '../src/employees/employees.service';
import { DomainEvents, PublishedEvent } from '../src/events/domain-events';
import { PrivacyService } from '../src/privacy/privacy.service';
import { WebhooksService } from '../src/webhooks/webhooks.service';
import { recreateDatabase } from '../test/support/global-setup';

const EVENTS = Number(process.env.BENCH_ERASE_EVENTS ?? 10_000);
const BATCH = 1_000;
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/skills_erase_bench_test_${process.pid}`;

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  await migrate(DATABASE_URL);
  const config = loadConfig({
    DATABASE_URL,
    SERVICE_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    LOG_LEVEL: 'silent',
  });
  // No dispatcher: the deliveries stay pending, as a backlog would.
  const app = await createApp({ config, databaseUrl: DATABASE_URL, poolSize: 4 });
  try {
    const employees = app.get(EmployeesService);
    const write = cliWrite();
    const seed = async (name: string) => {
      const { id: organisationId } = await app.get(OrganisationsService).create(name);
      await app
        .get(WebhooksService)
        .create(
          organisationId,
          { url: 'https://receiver.example.com/hook', events: ['employee.updated', 'skill.rated'] },
          write,
        );
      const employee = await employees.create(
        organisationId,
        { personnelNumber: 'P-1', firstName: 'Ada', lastName: 'Lovelace', businessEmail: 'ada@example.com' },
        write,
      );
      for (let published = 0; published < EVENTS; published += BATCH) {
        const events: PublishedEvent[] = Array.from({ length: Math.min(BATCH, EVENTS - published) }, (_, index) =>
          index % 2 === 0
            ? {
                name: 'employee.updated',
                data: { ...employee, title: `Title ${published + index}` },
                occurredAt: new Date(),
                changes: { title: { previous: null, current: `Title ${published + index}` } },
              }
            : {
                name: 'skill.rated',
                data: {
                  employeeId: employee.id,
                  rating: {
                    ratingId: employee.id,
                    personSkillId: employee.id,
                    skillId: employee.id,
                    skillName: 'Go',
                    score: 3,
                    ratingType: 'MANAGER_EVALUATION',
                    comment: `A comment about Ada, number ${published + index}`,
                    createdAt: new Date().toISOString(),
                  },
                },
                occurredAt: new Date(),
              },
        );
        await app
          .get(Database)
          .transaction((manager) => app.get(DomainEvents).publishMany(manager, organisationId, events), write);
      }
      return { organisationId, employeeId: employee.id };
    };
    await seed('Bystander');
    const { organisationId, employeeId } = await seed('Erasing');
    const database = app.get(Database);
    await database.manager().query('ANALYZE');

    const started = performance.now();
    await app.get(PrivacyService).erase(organisationId, employeeId, write);
    const erasureMs = Math.round(performance.now() - started);
    const [{ left }] = await database
      .manager()
      .query<Array<{ left: number }>>(
        `SELECT count(*)::int AS left FROM events WHERE organisation_id = $1 AND convert_from(body, 'UTF8') LIKE '%Ada%'`,
        [organisationId],
      );
    console.log(JSON.stringify({ events: EVENTS + 1, deliveries: EVENTS, erasureMs, eventsStillNamingAda: left }));
  } finally {
    await app.close();
    await recreateDatabase(DATABASE_URL, true).catch(() => undefined);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
