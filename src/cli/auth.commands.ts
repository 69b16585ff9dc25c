import { Command } from 'commander';
import { ApiKeySummary } from '../auth/api-keys.repository';
import { ApiKeysService } from '../auth/api-keys.service';
import { OrganisationsService } from '../auth/organisations.service';
import { API_SCOPES } from '../auth/scopes';
import { ValidationError } from '../errors/errors';
import { CliContext } from './cli-context';
import { CliOutput, table } from './output';

export function registerAuthCommands(program: Command, context: CliContext, output: () => CliOutput): void {
  const org = program.command('org').description('manage organisations');
  org
    .command('create <name>')
    .description('create an organisation')
    .action(async (name: string) => {
      const organisation = await context.withApp((app) => app.get(OrganisationsService).create(name));
      output().result(
        { id: organisation.id, name: organisation.name },
        `Created organisation "${organisation.name}" with id ${organisation.id}`,
      );
    });
  org
    .command('list')
    .description('list the organisations, oldest first')
    .action(async () => {
      const organisations = await context.withApp((app) => app.get(OrganisationsService).list());
      output().result(
        { organisations: organisations.map(({ id, name, createdAt }) => ({ id, name, createdAt })) },
        organisations.length === 0
          ? 'No organisations'
          : table(
              ['ID', 'NAME', 'CREATED'],
              organisations.map(({ id, name, createdAt }) => [id, name, createdAt.toISOString()]),
            ),
      );
    });

  const apiKey = program.command('api-key').description('manage API keys');
  apiKey
    .command('create')
    .description('create an API key for an organisation; the key is shown only this once')
    .requiredOption('--org <id or name>', 'the organisation')
    .option('--scopes <list>', `what the key may do, comma-separated: ${API_SCOPES.join(', ')} (default: all)`)
    .option('--name <text>', 'a name to recognise the key by')
    .option('--label <text>', 'the same as --name (its former name)')
    .option('--expires-in <duration>', 'refuse the key after this long: a whole number of d, h or m, e.g. 90d')
    .action(async (options: { org: string; scopes?: string; name?: string; label?: string; expiresIn?: string }) => {
      const scopes = options.scopes?.split(',').map((scope) => scope.trim());
      const expiresAt = options.expiresIn === undefined ? undefined : expiryAfter(options.expiresIn, new Date());
      const created = await context.withApp(async (app) => {
        const organisation = await app.get(OrganisationsService).findByIdOrName(options.org);
        return app
          .get(ApiKeysService)
          .create(organisation.id, { name: options.name ?? options.label, scopes, expiresAt }, { type: 'cli' });
      });
      const { id, organisationId, name, key } = created;
      output().result(
        { id, organisationId, name, scopes: created.scopes, expiresAt: created.expiresAt?.toISOString() ?? null, key },
        `Created API key ${id} for organisation ${organisationId} with scopes ${created.scopes.join(', ')}` +
          `${created.expiresAt ? `, expiring at ${created.expiresAt.toISOString()}` : ''}.\n` +
          `Key (shown only this once): ${key}`,
      );
    });
  apiKey
    .command('list')
    .description("list an organisation's API keys, revoked ones too (never the keys themselves)")
    .requiredOption('--org <id or name>', 'the organisation')
    .action(async (options: { org: string }) => {
      const { organisation, keys } = await context.withApp(async (app) => {
        const found = await app.get(OrganisationsService).findByIdOrName(options.org);
        return { organisation: found, keys: await app.get(ApiKeysService).list(found.id) };
      });
      output().result(
        { apiKeys: keys.map(toListedKey) },
        keys.length === 0
          ? `No API keys for organisation "${organisation.name}"`
          : table(
              ['ID', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED'],
              keys.map((key) => [
                key.id,
                key.name ?? '-',
                key.scopes.join(','),
                key.createdAt.toISOString(),
                key.expiresAt?.toISOString() ?? '-',
                key.lastUsedAt?.toISOString() ?? '-',
                key.revokedAt?.toISOString() ?? '-',
              ]),
            ),
      );
    });
  apiKey
    .command('revoke <id>')
    .description('revoke an API key at once')
    .action(async (id: string) => {
      await context.withApp((app) => app.get(ApiKeysService).revoke(id, { type: 'cli' }));
      output().result({ id, revoked: true }, `Revoked API key ${id}`);
    });
}

/** A key as `api-key list --json` prints it: never its hash. */
function toListedKey(key: ApiKeySummary) {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

const DURATION = /^([1-9]\d{0,6})([dhm])$/;
const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

/** The end of `--expires-in` from `now`: a whole number of days, hours or minutes ("90d", "12h", "30m"). */
function expiryAfter(duration: string, now: Date): Date {
  const match = DURATION.exec(duration);
  const expiresAt = match
    ? new Date(now.getTime() + Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS])
    : null;
  if (!expiresAt || expiresAt.getUTCFullYear() > 9999) {
    throw ValidationError.forField(
      'expires-in',
      `--expires-in is a whole number of days, hours or minutes up to year 9999, e.g. 90d, 12h or 30m; got "${duration}"`,
    );
  }
  return expiresAt;
}
