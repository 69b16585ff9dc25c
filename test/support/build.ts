import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before as swaggerPlugin } from '@nestjs/swagger/plugin';
import * as ts from 'typescript';
import { readSqlFunctionFiles } from '../../src/database/sql-functions';

const ROOT = join(__dirname, '..', '..');
/** Inside the repository, so that the build finds node_modules as dist/ does. */
const CACHE = join(ROOT, 'node_modules', '.cache', 'skills-service');

/** The built server and CLI (main.js, cli.js) that the process tests run: built once per run. */
export function testBuildDir(): string {
  const dir = process.env.TEST_BUILD_DIR;
  if (!dir) throw new Error('TEST_BUILD_DIR is set by the global setup');
  return dir;
}

/**
 * dist/ when it is newer than every source (CI builds before testing), else a build of this run's own,
 * never dist/ itself: a developer's server may be running from it.
 */
export function buildForTests(): string {
  const dist = join(ROOT, 'dist');
  if (isFresh(dist)) return dist;
  const outDir = join(CACHE, `test-build-${process.pid}`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  compile(outDir);
  return outDir;
}

/** Removes a build of this run's own; dist/ is left alone. */
export function removeTestBuild(dir: string | undefined): void {
  if (dir?.startsWith(CACHE)) rmSync(dir, { recursive: true, force: true });
}

/** What `nest build` does: tsconfig.build.json with the @nestjs/swagger plugin and the options of nest-cli.json. */
function compile(outDir: string): void {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.build.json'),
    { outDir, sourceMap: false },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => fail([diagnostic]) },
  );
  if (!parsed) throw new Error('tsconfig.build.json could not be read');
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const result = program.emit(undefined, undefined, undefined, false, {
    before: [swaggerPlugin(swaggerPluginOptions(), program)],
  });
  if (result.emitSkipped) fail(result.diagnostics);
  // nest-cli.json's assets: the SQL function files, which start-up applies from beside the code.
  for (const { file } of readSqlFunctionFiles(join(ROOT, 'src'))) {
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    copyFileSync(join(ROOT, 'src', file), join(outDir, file));
  }
}

function swaggerPluginOptions(): Record<string, unknown> {
  const nestCli = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as {
    compilerOptions: { plugins: Array<{ name: string; options: Record<string, unknown> }> };
  };
  const plugin = nestCli.compilerOptions.plugins.find(({ name }) => name === '@nestjs/swagger');
  if (!plugin) throw new Error('nest-cli.json names no @nestjs/swagger plugin');
  return plugin.options;
}

function fail(diagnostics: readonly ts.Diagnostic[]): never {
  throw new Error(
    ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => '\n',
    }),
  );
}

/** Built after the last change to the sources: a changed, added or removed file moves its folder's time too. */
function isFresh(dist: string): boolean {
  const outputs = ['main.js', 'cli.js'].map((file) => join(dist, file));
  if (!outputs.every((file) => existsSync(file))) return false;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const inputs = ['tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'].map((file) => join(ROOT, file));
  return newest([...inputs, join(ROOT, 'src')]) < built;
}

function newest(paths: string[]): number {
  let latest = 0;
  for (const path of paths) {
    const stat = statSync(path);
    latest = Math.max(latest, stat.mtimeMs);
    if (stat.isDirectory()) {
      latest = Math.max(latest, newest(readdirSync(path).map((entry) => join(path, entry))));
    }
  }
  return latest;
}
