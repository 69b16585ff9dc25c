import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { dataSourceOf } from '../support/app';
import { OpenAPIObject, operationsOf, servedDocument } from '../support/openapi-document';
import { runTool, workDirectory, writeDocument } from '../support/openapi-tools';
import { PositionsFixtures } from '../support/positions-fixtures';
import { useTestApp } from '../support/use-test-app';

const CLIENT = join(__dirname, '..', 'openapi-client');
/** The page-mode flow (every operation), the cursor-mode flow, and what both import. */
const FILES = ['flow.ts', 'cursor-flow.ts', 'support.ts'];

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

/** tsc --strict --noUncheckedIndexedAccess on the flows and the generated types; answers the diagnostics. */
function compile(flows: string[], outDir: string): string[] {
  const program = ts.createProgram(flows, {
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
  const suite = useTestApp({ config: { webhookTimeoutMs: 2000 }, tenant: 'once' });
  let directory: ReturnType<typeof workDirectory>;
  let document: OpenAPIObject;
  let diagnostics: string[];
  let run: (flow: string) => Promise<string>;

  beforeAll(async () => {
    const fixtures = new PositionsFixtures(dataSourceOf(suite.app), suite.tenant.organisationId);
    const [leaving, candidate] = [await fixtures.employee(), await fixtures.employee()];
    const skill = await fixtures.skill(`Accounting ${Date.now()}`);
    const position = await fixtures.position({
      replacesEmployeeId: leaving.id,
      requiredSkills: [{ skill, minimumRating: 3 }],
      replacements: [{ candidate, readyAt: new Date('2027-01-01T00:00:00Z'), status: 'PROPOSED' }],
    });
    const server: Server = suite.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    directory = workDirectory('openapi-client');

    document = servedDocument(suite.app);
    const generated = await runTool(
      'openapiTypescript',
      [writeDocument(directory.path, document), '--output', join(directory.path, 'schema.d.ts')],
      directory.path,
    );
    if (generated.code !== 0) throw new Error(`openapi-typescript failed: ${generated.stderr}`);
    for (const file of FILES) copyFileSync(join(CLIENT, file), join(directory.path, file));
    const out = join(directory.path, 'out');
    diagnostics = compile(
      FILES.map((file) => join(directory.path, file)),
      out,
    );
    run = async (flow) => {
      const { stdout } = await promisify(execFile)(process.execPath, [join(out, flow.replace(/\.ts$/, '.js'))], {
        env: { PATH: process.env.PATH, API_ORIGIN: origin, API_KEY: suite.tenant.key, POSITION_ID: position.id },
        // It calls every operation: on the embedded database, with the other worker busy, that can take a while.
        timeout: 90_000,
      }).catch((error: Error & { stderr?: string }) => {
        throw new Error(`${flow} failed: ${error.stderr || error.message}`);
      });
      return stdout;
    };
  });
  afterAll(async () => {
    directory.remove();
  });

  it('writes the flows without `as`, `any` or `!`', () => {
    expect(FILES.flatMap((file) => forbiddenConstructs(join(CLIENT, file)))).toEqual([]);
  });

  it('compiles the page-mode flow (version 1 code) and the cursor-mode flow under tsc --strict --noUncheckedIndexedAccess', () => {
    expect(diagnostics).toEqual([]);
  });

  it('runs the page-mode flow green against the server, on every operation', async () => {
    const touched = JSON.parse(await run('flow.ts')) as string[];
    const every = operationsOf(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(touched.sort()).toEqual(every.sort());
  });

  it('runs the cursor-mode flow green: a counted first page, then every skill once by cursor', async () => {
    const read = JSON.parse(await run('cursor-flow.ts')) as { names: string[]; cursorMetaFields: string[] };
    expect(read.names.map((name) => name.split(' ')[0])).toEqual(['Alpha', 'Beta', 'Gamma']);
    // Cursor mode counts nothing: its meta has no page fields, though the generated type names them.
    expect(read.cursorMetaFields).toEqual(['hasNextPage,limit,nextCursor', 'hasNextPage,limit,nextCursor']);
  });
});
