import { INestApplication, Logger } from '@nestjs/common';
import { ApiKeysService } from './auth/api-keys.service';
import { OrganisationsService } from './auth/organisations.service';
import { PeopleService } from './console/people/people.service';

const DEFAULT_ORGANISATION = 'Default';
/** The console's first admin on the embedded database (docs/api-decisions.md, "First start"). */
export const FIRST_ADMIN_EMAIL = 'admin@localhost';

/**
 * On an embedded database with no key at all, make organisation "Default", one key and the console's admin
 * `admin@localhost`, and print the key and the admin's welcome link once, so the first request can be made and
 * the console opened at once. Never called with DATABASE_URL.
 */
export async function ensureFirstStart(app: INestApplication, port: number): Promise<void> {
  const apiKeys = app.get(ApiKeysService);
  if (await apiKeys.hasAnyKey()) return;
  const organisations = app.get(OrganisationsService);
  const organisation = await organisations
    .findByIdOrName(DEFAULT_ORGANISATION)
    .catch(() => organisations.create(DEFAULT_ORGANISATION));
  const { id, key } = await apiKeys.create(organisation.id, { name: 'first start' }, { type: 'first_start' });
  const people = app.get(PeopleService);
  const admin = await people
    .findByEmail(FIRST_ADMIN_EMAIL)
    .then(() => people.resetLink(FIRST_ADMIN_EMAIL, { type: 'first_start' }))
    .catch(() => people.invite(organisation.id, { email: FIRST_ADMIN_EMAIL, role: 'admin' }, { type: 'first_start' }));
  // The key and the link go to stdout only, never into the log; the log keeps that they were made.
  const logger = new Logger('FirstStart');
  logger.log(`Created organisation ${DEFAULT_ORGANISATION} and its first API key ${id}`);
  logger.log(`Created the console's first admin ${admin.person.id}`);
  process.stdout.write(firstStartBlock(id, key, admin.link, port));
}

/** Plain text, set apart from the log lines, whatever LOG_LEVEL and LOG_FORMAT are. */
function firstStartBlock(id: string, key: string, link: string, port: number): string {
  const rule = '='.repeat(78);
  return [
    '',
    rule,
    ` First start: created organisation "${DEFAULT_ORGANISATION}" and its first API key.`,
    ' The key is shown only this once: keep it somewhere safe.',
    '',
    ` API key id: ${id}`,
    ` API key:    ${key}`,
    '',
    ' Try it:',
    ` curl -H 'Authorization: Bearer ${key}' http://localhost:${port}/api/v1/employees`,
    '',
    ` Console: open this link to choose a password for ${FIRST_ADMIN_EMAIL} (works once, for 72 hours):`,
    ` ${link}`,
    rule,
    '',
    '',
  ].join('\n');
}
