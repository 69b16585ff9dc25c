import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenAPIObject } from './openapi-document';

const ROOT = join(__dirname, '..', '..');
/** Inside the repository, so that what runs there finds node_modules (the generated client imports openapi-fetch). */
const CACHE = join(ROOT, 'node_modules', '.cache', 'skills-service');

/** The third-party tools, each run from node_modules by the Node running the tests: nothing is downloaded. */
const TOOLS = {
  redocly: join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
  spectral: join(ROOT, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js'),
  openapiTypescript: join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
};

/** The rulesets of test/openapi-lint, by name. */
export const RULESETS = {
  oas: join(ROOT, 'test', 'openapi-lint', 'spectral-oas.yaml'),
  owasp: join(ROOT, 'test', 'openapi-lint', 'spectral-owasp.yaml'),
};

/** No telemetry, no update check: the tools must behave the same with no network at all. */
const QUIET_ENV = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
  CI: 'true',
};

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool's entry script with Node in `cwd`; a non-zero exit is reported, not thrown (linters exit 1 on findings). */
export async function runTool(tool: keyof typeof TOOLS, args: string[], cwd: string): Promise<ToolRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [TOOLS[tool], ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: cwd, ...QUIET_ENV },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? failed.message };
  }
}

/** A fresh directory for one test file's files, inside the repository; `remove()` in afterAll. */
export function workDirectory(name: string): { path: string; remove: () => void } {
  mkdirSync(CACHE, { recursive: true });
  const path = mkdtempSync(join(CACHE, `${name}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Writes the document as JSON into `directory`; answers the file's path. */
export function writeDocument(directory: string, document: OpenAPIObject): string {
  const file = join(directory, 'openapi.json');
  writeFileSync(file, JSON.stringify(document, null, 2));
  return file;
}
