import { INestApplication, Logger } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { OrganisationsService } from './organisations.service';

const DEFAULT_ORGANISATION = 'Default';

/**
 * On an embedded database with no key at all, make organisation "Default" and one key, and print the
 * key once so the first request can be made at once. Never called with DATABASE_URL.
 */
export async function ensureFirstStartKey(app: INestApplication, port: number): Promise<void> {
  const apiKeys = app.get(ApiKeysService);
  if (await apiKeys.hasAnyKey()) return;
  const organisations = app.get(OrganisationsService);
  const organisation = await organisations
    .findByIdOrName(DEFAULT_ORGANISATION)
    .catch(() => organisations.create(DEFAULT_ORGANISATION));
  const { id, key } = await apiKeys.create(organisation.id, { name: 'first start' });
  // The key goes to stdout only, never into the log; the log keeps that it was made.
  new Logger('FirstStart').log(`Created organisation ${DEFAULT_ORGANISATION} and its first API key ${id}`);
  process.stdout.write(firstStartBlock(id, key, port));
}

/** Plain text, set apart from the log lines, whatever LOG_LEVEL and LOG_FORMAT are. */
function firstStartBlock(id: string, key: string, port: number): string {
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
    rule,
    '',
    '',
  ].join('\n');
}
