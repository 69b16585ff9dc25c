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
  const { key } = await apiKeys.create(organisation.id, 'first start');
  const logger = new Logger('FirstStart');
  logger.log(`Created organisation ${DEFAULT_ORGANISATION} and its first API key (shown only this once): ${key}`);
  // Single quotes, so the line stays ready to paste inside a JSON log line.
  logger.log(`Try it: curl -H 'Authorization: Bearer ${key}' http://localhost:${port}/api/v1/employees`);
}
