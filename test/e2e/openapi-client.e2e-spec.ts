import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NestExpressApplication } from '@nestjs/platform-express';
import * as ts from 'typescript';
import { createTenant, createTestApp, dataSourceOf } from '../support/app';
import { operationsOf, servedDocument } from '../support/openapi-document';
import { runTool, workDirectory, writeDocument } from '../support/openapi-tools';
import { PositionsFixtures } from '../support/positions-fixtures';

const FLOW = join(__dirname, '..', 'openapi-client', 'flow.ts');

/** What the flow may not write: it must get its types from the generated client alone. */
const FORBIDDEN: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.AsExpression]: '`as`',
  [ts.SyntaxKind.TypeAssertionExpression]: 'a type assertion',
  [ts.SyntaxKind.AnyKeyword]: '`any`',
  [ts.SyntaxKind.NonNullExpression]: 'a non-null assertion (`!`)',
};

function forbiddenConstructs(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const what = FORBIDDEN[node.kind];
    if (what) found.push(`${what} at line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** tsc --strict --noUncheckedIndexedAccess on the flow and the generated types; answers the diagnostics. */
function compile(flow: string, outDir: string): string[] {
  const program = ts.createProgram([flow], {
    strict: true,
    noUncheckedIndexedAccess: true,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    outDir,
  });
  const emitted = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((diagnostic) => {
    const where = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    return `${diagnostic.file?.fileName ?? ''}:${where ? where.line + 1 : ''} ${message}`;
  });
}

// Third-party tools in child processes: seconds alone, several times that on a busy two-core machine.
jest.setTimeout(120_000);

describe('a client generated from the document by openapi-typescript with its default settings', () => {
  let app: NestExpressApplication;
  let directory: ReturnType<typeof workDirectory>;
  let origin: string;
  let key: string;
  let positionId: string;

  beforeAll(async () => {
    app = await createTestApp({ webhookTimeoutMs: 2000 });
    const tenant = await createTenant(app);
    key = tenant.key;
    const fixtures = new PositionsFixtures(dataSourceOf(app), tenant.organisationId);
    const [leaving, candidate] = [await fixtures.employee(), await fixtures.employee()];
    const skill = await fixtures.skill(`Accounting ${Date.now()}`);
    const position = await fixtures.position({
      replacesEmployeeId: leaving.id,
      requiredSkills: [{ skill, minimumRating: 3 }],
      replacements: [{ candidate, readyAt: new Date('2027-01-01T00:00:00Z'), status: 'PROPOSED' }],
    });
    positionId = position.id;
    const server: Server = app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    directory = workDirectory('openapi-client');
  });
  afterAll(async () => {
    directory.remove();
    await app.close();
  });

  it('writes the flow without `as`, `any` or `!`', () => {
    expect(forbiddenConstructs(FLOW)).toEqual([]);
  });

  it('compiles under tsc --strict --noUncheckedIndexedAccess and runs green against the server, on every operation', async () => {
    const document = servedDocument(app);
    const generated = await runTool(
      'openapiTypescript',
      [writeDocument(directory.path, document), '--output', join(directory.path, 'schema.d.ts')],
      directory.path,
    );
    expect(generated.code).toBe(0);

    const flow = join(directory.path, 'flow.ts');
    copyFileSync(FLOW, flow);
    expect(compile(flow, join(directory.path, 'out'))).toEqual([]);

    const { stdout } = await promisify(execFile)(process.execPath, [join(directory.path, 'out', 'flow.js')], {
      env: { PATH: process.env.PATH, API_ORIGIN: origin, API_KEY: key, POSITION_ID: positionId },
      timeout: 30_000,
    }).catch((error: Error & { stderr?: string }) => {
      throw new Error(`the flow failed: ${error.stderr ?? error.message}`);
    });
    const touched = JSON.parse(stdout) as string[];
    const every = operationsOf(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(touched.sort()).toEqual(every.sort());
  });
});
