import { Command } from 'commander';
import { CliContext } from './cli-context';
import { CliOutput } from './output';

export function registerDbCommands(program: Command, context: CliContext, output: () => CliOutput): void {
  program
    .command('db')
    .description('database maintenance')
    .command('migrate')
    .description('apply pending migrations')
    .action(async () => {
      const applied = await context.withRuntime(async (runtime) => runtime.appliedMigrations);
      output().result(
        { applied },
        applied.length ? `Applied ${applied.length} migration(s):\n  ${applied.join('\n  ')}` : 'Nothing to apply',
      );
    });
}
