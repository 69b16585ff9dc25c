import { Command } from 'commander';
import { OrganisationsService } from '../auth/organisations.service';
import { cliWrite } from '../database/write-context';
import { ValidationError } from '../errors/errors';
import { PrivacyService } from '../privacy/privacy.service';
import { CliContext } from './cli-context';
import { CliOutput } from './output';

/** `employees erase-leavers`, beside `employees import` (import.commands.ts makes the group). */
export function registerEmployeesCommands(program: Command, context: CliContext, output: () => CliOutput): void {
  const employees = program.commands.find((command) => command.name() === 'employees') ?? program.command('employees');
  employees
    .command('erase-leavers')
    .description('erase the employees who left more than the given time ago, as POST /employees/{id}/erase would')
    .requiredOption('--org <id or name>', 'the organisation')
    .requiredOption('--older-than <days>', 'how long ago they left: a whole number of days, e.g. 365d')
    .option('--dry-run', 'only list whom it would erase')
    .action(async (options: { org: string; olderThan: string; dryRun?: boolean }) => {
      const days = parseDays(options.olderThan);
      const dryRun = options.dryRun === true;
      const ids = await context.withApp(async (app) => {
        const organisation = await app.get(OrganisationsService).findByIdOrName(options.org);
        return app.get(PrivacyService).eraseLeavers(organisation.id, days, new Date(), dryRun, cliWrite());
      });
      output().result(
        dryRun ? { wouldErase: ids } : { erased: ids },
        `${dryRun ? 'Would erase' : 'Erased'} ${ids.length} employee${ids.length === 1 ? '' : 's'}` +
          (ids.length > 0 ? `:\n${ids.join('\n')}` : ''),
      );
    });
}

/** `--older-than`: a whole number of days, written `365d`. */
function parseDays(text: string): number {
  const match = /^(\d{1,6})d$/.exec(text);
  if (!match) {
    throw ValidationError.forField('older-than', `--older-than is a whole number of days, e.g. 365d; got "${text}"`);
  }
  return Number(match[1]);
}
