import { resolve } from 'node:path';
import { Command } from 'commander';
import { cliWrite } from '../database/write-context';
import { PositionsImportService } from '../positions/import/positions-import.service';
import { CliContext } from './cli-context';
import { CliOutput } from './output';

export function registerPositionsCommands(program: Command, context: CliContext, output: () => CliOutput): void {
  program
    .command('positions')
    .description('manage positions (the API only reads them)')
    .command('import <file.json>')
    .description('create or update positions from a JSON file, matched by ref; all of the file or nothing')
    .requiredOption('--org <id or name>', 'the organisation')
    .action(async (file: string, options: { org: string }) => {
      const summary = await context.withApp((app) =>
        app.get(PositionsImportService).importFile(options.org, resolve(file), cliWrite()),
      );
      output().result(
        summary,
        `Imported positions: ${summary.created} created, ${summary.updated} updated, ${summary.unchanged} unchanged`,
      );
    });
}
