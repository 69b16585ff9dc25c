import { Command, CommanderError } from 'commander';
import { AppConfig, loadConfig } from '../config/config';
import { AppError } from '../errors/errors';
import { registerAuthCommands } from './auth.commands';
import { CliContext } from './cli-context';
import { registerConsoleCommands } from './console.commands';
import { registerDbCommands } from './db.commands';
import { registerEmployeesCommands } from './employees.commands';
import { registerEscoCommands } from './esco.commands';
import { registerImportCommands } from './import.commands';
import { CliOutput, createOutput } from './output';
import { registerPositionsCommands } from './positions.commands';

export interface CliIo {
  stdout: (chunk: string) => void;
  stderr: (chunk: string) => void;
  /** Shows how far a long command is; a no-op unless a person watches a terminal. */
  progress?: (done: number, total: number) => void;
}

const processIo: CliIo = {
  stdout: (chunk) => process.stdout.write(chunk),
  stderr: (chunk) => process.stderr.write(chunk),
  progress: (done, total) => {
    if (process.stderr.isTTY) process.stderr.write(progressBar(done, total, done === total));
  },
};

const BAR_WIDTH = 30;

/** `[#####.....]  500/1000` on one line of the terminal, redrawn in place; a line break once finished. */
function progressBar(done: number, total: number, finished: boolean): string {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${done}/${total}${finished ? '\n' : ''}`;
}

/** The name of the package's binary, so that the help reads as the operator types it. */
const PROGRAM = 'skills-service';

/** Runs one operator command; resolves to the exit code. Also the entry point of the CLI tests. */
export async function runCli(argv: string[], io: CliIo = processIo, config?: AppConfig): Promise<number> {
  const json = argv.includes('--json');
  const words = argv.filter((arg) => arg !== '--json');
  const output: () => CliOutput = () => createOutput(json, io.stdout);
  const program = new Command(PROGRAM)
    .description('Skills service operator commands')
    .option('--json', 'print exactly one JSON object on stdout')
    .exitOverride()
    // Usage errors are reported once, below, in the form --json asks for.
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => undefined })
    .enablePositionalOptions(false);
  try {
    const context = new CliContext(config ?? loadConfig());
    registerAuthCommands(program, context, output);
    registerDbCommands(program, context, output);
    registerPositionsCommands(program, context, output);
    registerImportCommands(program, context, output, io.progress ?? (() => undefined));
    registerEscoCommands(program, context, output, io.progress ?? (() => undefined));
    registerEmployeesCommands(program, context, output);
    registerConsoleCommands(program, context, output);
    await program.parseAsync(words, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      // A command group named without its command: commander has printed its help on stderr.
      if (error.code === 'commander.help') {
        return json ? reportFailure(io, json, missingCommand(program, words), 'USAGE') : 1;
      }
      return reportFailure(io, json, error.message.replace(/^error: /, ''), 'USAGE');
    }
    const code = error instanceof AppError ? error.code : 'ERROR';
    return reportFailure(io, json, error instanceof Error ? error.message : String(error), code);
  }
}

/** "skills-service org needs a command: create, list" for the deepest command the words name. */
function missingCommand(program: Command, words: string[]): string {
  const path = [program];
  for (const word of words) {
    const next = path[path.length - 1].commands.find((command) => command.name() === word);
    if (!next) break;
    path.push(next);
  }
  const names = path.map((command) => command.name()).join(' ');
  const commands = path[path.length - 1].commands.map((command) => command.name());
  return `${names} needs a command: ${commands.join(', ')} (see --help)`;
}

function reportFailure(io: CliIo, json: boolean, message: string, code: string): number {
  if (json) io.stdout(`${JSON.stringify({ error: { message, code } })}\n`);
  io.stderr(`${message}\n`);
  return 1;
}
