import { Command } from 'commander';
import { ApiKeysService } from '../auth/api-keys.service';
import { OrganisationsService } from '../auth/organisations.service';
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
    .option('--label <text>', 'a label to recognise the key by')
    .action(async (options: { org: string; label?: string }) => {
      const created = await context.withApp(async (app) => {
        const organisation = await app.get(OrganisationsService).findByIdOrName(options.org);
        return app.get(ApiKeysService).create(organisation.id, options.label);
      });
      output().result(
        created,
        `Created API key ${created.id} for organisation ${created.organisationId}.\n` +
          `Key (shown only this once): ${created.key}`,
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
        { apiKeys: keys.map(({ id, label, createdAt, revokedAt }) => ({ id, label, createdAt, revokedAt })) },
        keys.length === 0
          ? `No API keys for organisation "${organisation.name}"`
          : table(
              ['ID', 'LABEL', 'CREATED', 'REVOKED'],
              keys.map(({ id, label, createdAt, revokedAt }) => [
                id,
                label ?? '-',
                createdAt.toISOString(),
                revokedAt?.toISOString() ?? '-',
              ]),
            ),
      );
    });
  apiKey
    .command('revoke <id>')
    .description('revoke an API key at once')
    .action(async (id: string) => {
      await context.withApp((app) => app.get(ApiKeysService).revoke(id));
      output().result({ id, revoked: true }, `Revoked API key ${id}`);
    });
}
