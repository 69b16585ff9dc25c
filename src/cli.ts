import { runCli } from './cli/run-cli';

void runCli(process.argv.slice(2)).then((exitCode) => process.exit(exitCode));
