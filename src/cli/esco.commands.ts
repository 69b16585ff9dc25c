import { resolve } from 'node:path';
import { Command } from 'commander';
import { OrganisationsService } from '../auth/organisations.service';
import { cliWrite } from '../database/write-context';
import { EscoImportReport, ImportCounts } from '../skills/esco/esco-import.report';
import { EscoImportService } from '../skills/esco/esco-import.service';
import { CliContext } from './cli-context';
import { readEscoDirectory } from './esco-files';
import { CliOutput } from './output';

/** `skills import-esco`, beside `skills import` (registerImportCommands makes the `skills` command). */
export function registerEscoCommands(
  program: Command,
  context: CliContext,
  output: () => CliOutput,
  progress: (done: number, total: number) => void,
): void {
  const skills = program.commands.find((command) => command.name() === 'skills') ?? program.command('skills');
  skills
    .command('import-esco <dir>')
    .description(
      "create or update skills and skill groups from ESCO's CSV download (skills_en.csv, skillGroups_en.csv, " +
        'broaderRelationsSkillPillar_en.csv), matched by conceptUri; the files are checked whole before any write',
    )
    .requiredOption('--org <id or name>', 'the organisation')
    .option('--dry-run', 'report what the import would do, and write nothing')
    .action(async (directory: string, options: { org: string; dryRun?: boolean }) => {
      const input = await readEscoDirectory(resolve(directory), progress);
      const report = await context.withApp(async (app) => {
        const organisation = await app.get(OrganisationsService).findByIdOrName(options.org);
        return app
          .get(EscoImportService)
          .import(organisation.id, input, { dryRun: options.dryRun === true }, cliWrite());
      });
      output().result(report, reportText(report));
    });
}

function reportText(report: EscoImportReport): string {
  const counts = (what: string, { created, updated, unchanged, skipped }: ImportCounts) =>
    `${what}: ${created} created, ${updated} updated, ${unchanged} unchanged, ${skipped} skipped`;
  return [
    `ESCO import${report.dryRun ? ' (dry run: nothing written)' : ''}`,
    counts('Skills', report.skills),
    counts('Groups', report.groups),
    counts('Links', report.links),
    ...report.skipped.map(({ file, line, reason }) => `Skipped ${file}:${line}: ${reason}`),
  ].join('\n');
}
