import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { servedDocument } from '../support/openapi-document';
import { RULESETS, runTool, workDirectory, writeDocument } from '../support/openapi-tools';
import { useTestApp } from '../support/use-test-app';

interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
}

interface SpectralResult {
  code: string;
  message: string;
  severity: number;
  path: string[];
}

const ERROR = 0;

const listed = (results: Array<{ rule: string; where: string; message: string }>) =>
  results.map(({ rule, where, message }) => `${rule} at ${where}: ${message}`);

/** The served document, checked by linters nobody here wrote, with their own rulesets (run from node_modules). */
// Third-party tools in child processes: seconds alone, several times that on a busy two-core machine.
jest.setTimeout(120_000);

describe('the OpenAPI document passes third-party linters', () => {
  const suite = useTestApp({ tenant: 'none' });
  let directory: ReturnType<typeof workDirectory>;
  let file: string;

  beforeAll(() => {
    directory = workDirectory('openapi-lint');
    file = writeDocument(directory.path, servedDocument(suite.app));
  });
  afterAll(() => directory.remove());

  const spectral = async (ruleset: string): Promise<SpectralResult[]> => {
    const run = await runTool(
      'spectral',
      ['lint', file, '--ruleset', ruleset, '--format', 'json', '--quiet'],
      directory.path,
    );
    try {
      return JSON.parse(run.stdout) as SpectralResult[];
    } catch {
      throw new Error(`spectral answered no report (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
    }
  };

  it('has no error under Redocly CLI’s recommended ruleset', async () => {
    const run = await runTool('redocly', ['lint', file, '--extends=recommended', '--format=json'], directory.path);
    const report = JSON.parse(run.stdout) as RedoclyReport;
    const errors = report.problems
      .filter(({ severity }) => severity === 'error')
      .map(({ ruleId, message, location }) => ({ rule: ruleId, where: location[0]?.pointer ?? '', message }));
    expect(listed(errors)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(run.code).toBe(0);
  });

  it('has no error under Spectral’s OpenAPI ruleset (spectral:oas)', async () => {
    const errors = (await spectral(RULESETS.oas))
      .filter(({ severity }) => severity === ERROR)
      .map(({ code, path, message }) => ({ rule: code, where: path.join('.'), message }));
    expect(listed(errors)).toEqual([]);
  });

  it('defines rate-limit headers and a 500 wherever the OWASP API Security ruleset asks', async () => {
    const enforced = ['owasp:api4:2023-rate-limit', 'owasp:api8:2023-define-error-responses-500'];
    const results = await spectral(RULESETS.owasp);
    // The ruleset did run: it reports rules this test does not enforce (string lengths, CORS, …).
    expect(results.length).toBeGreaterThan(0);
    const findings = results
      .filter(({ code }) => enforced.includes(code))
      .map(({ code, path, message }) => ({ rule: code, where: path.join('.'), message }));
    expect(listed(findings)).toEqual([]);
  });

  it('uses tools that are development dependencies only, which the image prunes (npm prune --omit=dev)', () => {
    const lock = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    for (const name of [
      '@redocly/cli',
      '@stoplight/spectral-cli',
      '@stoplight/spectral-owasp-ruleset',
      'openapi-typescript',
      'openapi-fetch',
      'ajv',
      'ajv-formats',
      'openapi-response-validator',
    ]) {
      expect({ [name]: lock.packages[`node_modules/${name}`]?.dev }).toEqual({ [name]: true });
    }
  });
});
