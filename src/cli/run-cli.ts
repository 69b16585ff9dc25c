import { Command, CommanderError } from 'commander';
import { AppError } from '../common/errors';
import { AppConfig, loadConfig } from '../config/config';
import { registerAuthCommands } from './auth.commands';
import { CliContext } from './cli-context';
import { registerDbCommands } from './db.commands';
import { CliOutput, createOutput } from './output';
import { registerPositionsCommands } from './positions.commands';

export interface CliIo {
  stdout(chunk: string): void;
  stderr(chunk: string): void;
}

const processIo: CliIo = {
  stdout: (chunk) => process.stdout.write(chunk),
  stderr: (chunk) => process.stderr.write(chunk),
};

/** Runs one operator command; resolves to the exit code. Also the entry point of the CLI tests. */
export async function runCli(argv: string[], io: CliIo = processIo, config?: AppConfig): Promise<number> {
  const json = argv.includes('--json');
  const output: () => CliOutput = () => createOutput(json, io.stdout);
  const program = new Command('cli')
    .description('Skills service operator commands')
    .option('--json', 'print exactly one JSON object on stdout')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .enablePositionalOptions(false);
  try {
    const context = new CliContext(config ?? loadConfig());
    registerAuthCommands(program, context, output);
    registerDbCommands(program, context, output);
    registerPositionsCommands(program, context, output);
    await program.parseAsync(argv.filter((arg) => arg !== '--json'), { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : reportFailure(io, json, error.message.replace(/^error: /, ''), 'USAGE');
    }
    const code = error instanceof AppError ? error.code : 'ERROR';
    return reportFailure(io, json, error instanceof Error ? error.message : String(error), code);
  }
}

function reportFailure(io: CliIo, json: boolean, message: string, code: string): number {
  if (json) io.stdout(`${JSON.stringify({ error: { message, code } })}\n`);
  io.stderr(`${message}\n`);
  return 1;
}
