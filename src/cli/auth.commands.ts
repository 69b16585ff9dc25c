import { Command } from 'commander';
import { ApiKeysService } from '../auth/api-keys.service';
import { OrganisationsService } from '../auth/organisations.service';
import { CliContext } from './cli-context';
import { CliOutput } from './output';

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
    .command('revoke <id>')
    .description('revoke an API key at once')
    .action(async (id: string) => {
      await context.withApp((app) => app.get(ApiKeysService).revoke(id));
      output().result({ id, revoked: true }, `Revoked API key ${id}`);
    });
}
