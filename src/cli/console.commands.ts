import { Command } from 'commander';
import { OrganisationsService } from '../auth/organisations.service';
import { ConsoleUser } from '../console/people/console-users.repository';
import { PeopleService } from '../console/people/people.service';
import { SsoService } from '../console/sso/sso.service';
import type { Actor } from '../database/write-context';
import { CliContext } from './cli-context';
import { CliOutput, table } from './output';

const CLI: Actor = { type: 'cli' };

/** The console's people (`user …`) and each organisation's single sign-on (`sso …`). */
export function registerConsoleCommands(program: Command, context: CliContext, output: () => CliOutput): void {
  const user = program.command('user').description("manage the console's people");
  user
    .command('invite')
    .description("invite a person to an organisation's console; prints their welcome link (valid 72 h, single use)")
    .requiredOption('--org <id or name>', 'the organisation')
    .requiredOption('--email <email>', 'their email, unique across the service')
    .requiredOption('--role <role>', 'admin (changes everything) or viewer (sees everything, changes nothing)')
    .action(async (options: { org: string; email: string; role: string }) => {
      const { person, link } = await context.withApp(async (app) => {
        const organisation = await app.get(OrganisationsService).findByIdOrName(options.org);
        return app.get(PeopleService).invite(organisation.id, { email: options.email, role: options.role }, CLI);
      });
      output().result(
        { id: person.id, email: person.email, role: person.role, link },
        `Invited ${person.email} as ${person.role}. Welcome link (valid 72 hours, works once):\n${link}`,
      );
    });
  user
    .command('reset')
    .description(
      'make a new welcome link for a person (the earlier one stops working); their password stays until it is used',
    )
    .requiredOption('--email <email>', 'the person')
    .action(async (options: { email: string }) => {
      const { person, link } = await context.withApp((app) => app.get(PeopleService).resetLink(options.email, CLI));
      output().result(
        { id: person.id, email: person.email, role: person.role, link },
        `New welcome link for ${person.email} (valid 72 hours, works once):\n${link}`,
      );
    });
  user
    .command('list')
    .description("list an organisation's console people")
    .requiredOption('--org <id or name>', 'the organisation')
    .action(async (options: { org: string }) => {
      const { organisation, people } = await context.withApp(async (app) => {
        const found = await app.get(OrganisationsService).findByIdOrName(options.org);
        return { organisation: found, people: await app.get(PeopleService).list(found.id) };
      });
      output().result(
        { users: people.map(toListedUser) },
        people.length === 0
          ? `No console people in organisation "${organisation.name}"`
          : table(
              ['ID', 'EMAIL', 'ROLE', 'CREATED', 'LAST SIGN-IN'],
              people.map((person) => [
                person.id,
                person.email,
                person.role,
                person.createdAt.toISOString(),
                person.lastSignInAt?.toISOString() ?? '-',
              ]),
            ),
      );
    });
  user
    .command('remove')
    .description('remove a person from the console; their sessions end at once')
    .requiredOption('--email <email>', 'the person')
    .action(async (options: { email: string }) => {
      const removed = await context.withApp(async (app) => {
        const people = app.get(PeopleService);
        const person = await people.findByEmail(options.email);
        return people.remove(person.organisationId, person.id, CLI);
      });
      output().result({ id: removed.id, email: removed.email, removed: true }, `Removed ${removed.email}`);
    });

  const sso = program.command('sso').description("an organisation's single sign-on (OpenID Connect)");
  sso
    .command('set')
    .description("make an organisation's people sign in at its OpenID Connect provider")
    .requiredOption('--org <id or name>', 'the organisation')
    .requiredOption('--issuer <url>', "the provider's issuer (https), where its discovery document is")
    .requiredOption('--client-id <id>', "the console's client id at the provider")
    .requiredOption('--client-secret <secret>', 'its client secret (kept sealed)')
    .action(async (options: { org: string; issuer: string; clientId: string; clientSecret: string }) => {
      const organisation = await context.withApp(async (app) => {
        const found = await app.get(OrganisationsService).findByIdOrName(options.org);
        await app.get(SsoService).set(found.id, options, CLI);
        return found;
      });
      output().result(
        { organisationId: organisation.id, issuer: options.issuer, clientId: options.clientId },
        `Organisation "${organisation.name}" now signs in at ${options.issuer}; passwords no longer work for it.\n` +
          `Register this redirect URI at the provider: ${context.config.publicUrl}/console/sso/callback`,
      );
    });
  sso
    .command('remove')
    .description('stop single sign-on for an organisation: its people sign in with passwords again')
    .requiredOption('--org <id or name>', 'the organisation')
    .action(async (options: { org: string }) => {
      const organisation = await context.withApp(async (app) => {
        const found = await app.get(OrganisationsService).findByIdOrName(options.org);
        await app.get(SsoService).remove(found.id, CLI);
        return found;
      });
      output().result(
        { organisationId: organisation.id, removed: true },
        `Organisation "${organisation.name}" signs in with passwords again`,
      );
    });
}

function toListedUser(person: ConsoleUser) {
  return {
    id: person.id,
    email: person.email,
    role: person.role,
    createdAt: person.createdAt.toISOString(),
    lastSignInAt: person.lastSignInAt?.toISOString() ?? null,
  };
}
