import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { testBuildDir } from '../support/build';
import { freePort, ServerProcess, startServer } from '../support/server-process';

jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..');

/** Written just above a block in the README's source, with the reason: that block is shown, not run. */
const NOT_RUN = /^<!-- not run by the README test: (.+) -->$/;
/** What a reader replaces: the key the first start printed, and the port, which a test cannot hold. */
const KEY_PLACEHOLDER = 'sk_…';
const README_ORIGIN = 'localhost:3000';
const KEY_IN_BLOCK = /\n API key: {4}(sk_[\w-]+)\n/;

interface Block {
  /** Line of the opening fence in README.md. */
  line: number;
  script: string;
  notRun?: string;
}

function codeBlocks(markdown: string): Array<Block & { language: string }> {
  const lines = markdown.split('\n');
  const blocks: Array<Block & { language: string }> = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\S*)$/.exec(lines[index]);
    if (!fence) continue;
    const end = lines.indexOf('```', index + 1);
    let above = index - 1;
    while (above >= 0 && lines[above].trim() === '') above--;
    blocks.push({
      line: index + 1,
      language: fence[1],
      script: lines.slice(index + 1, end).join('\n'),
      notRun: NOT_RUN.exec(lines[above] ?? '')?.[1],
    });
    index = end;
  }
  return blocks;
}

/** The command line needs the embedded database to itself: the README stops the server first. */
const usesCommandLine = (script: string) => /\bnpm run cli\b|\bdist\/cli\.js\b/.test(script);
const usesServer = (script: string) => /\bcurl\b/.test(script);

/**
 * One bash session, as a reader's terminal: variables set by a block stay for the next. Each block
 * runs under `set -e`, with no input; a failing command ends the session, and the test with it.
 */
class Terminal {
  private readonly shell: ChildProcessWithoutNullStreams;
  private output = '';
  private exit: Promise<number | null>;
  private count = 0;

  constructor(private readonly cwd: string) {
    this.shell = spawn('bash', ['--noprofile', '--norc'], {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        npm_config_update_notifier: 'false',
        npm_config_fund: 'false',
      },
    });
    this.shell.stdout.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.shell.stderr.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exit = new Promise((resolve) => this.shell.once('exit', (code) => resolve(code)));
    this.shell.stdin.write('set -e\n');
  }

  /** Runs the script in the session; resolves to what it printed. */
  async run(script: string, timeoutMs = 120_000): Promise<string> {
    const file = join(this.cwd, `.readme-block-${++this.count}.sh`);
    writeFileSync(file, `${script}\n`);
    const start = this.output.length;
    const done = `__readme_block_${this.count}_done__`;
    this.shell.stdin.write(`source ${file} </dev/null\necho ${done}\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const printed = this.output.slice(start);
      if (printed.includes(`${done}\n`)) return printed.replace(`${done}\n`, '');
      if (this.shell.exitCode !== null) {
        throw new Error(`failed with exit code ${this.shell.exitCode}:\n${printed}`);
      }
      if (Date.now() > deadline) throw new Error(`did not finish within ${timeoutMs} ms:\n${printed}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    this.shell.stdin.end('exit 0\n');
    await this.exit;
  }
}

describe('README.md', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = codeBlocks(readme);

  it('names the language of every code block, and holds its commands in bash blocks', () => {
    expect(blocks.filter(({ language }) => language === '' || /^(sh|shell|console|zsh)$/.test(language))).toEqual([]);
    expect(blocks.filter(({ language }) => language === 'bash').length).toBeGreaterThan(5);
  });

  it('runs every bash block as written, in order, against a server started on a fresh data directory', async () => {
    // A checkout of the project in a fresh directory: its ./data is a fresh embedded database.
    const checkout = mkdtempSync(join(tmpdir(), 'skills-readme-'));
    for (const entry of [
      'package.json',
      'node_modules',
      'src',
      'tsconfig.json',
      'tsconfig.build.json',
      'nest-cli.json',
    ]) {
      symlinkSync(join(ROOT, entry), join(checkout, entry));
    }
    symlinkSync(testBuildDir(), join(checkout, 'dist'));
    const terminal = new Terminal(checkout);
    const port = await freePort();
    let server: ServerProcess | undefined;
    let key: string | undefined;
    let ran = 0;
    try {
      for (const block of blocks.filter(({ language, notRun }) => language === 'bash' && !notRun)) {
        const where = `README.md:${block.line}`;
        if (usesCommandLine(block.script) && usesServer(block.script)) {
          throw new Error(`${where} both calls the server and runs the command line, which needs it stopped`);
        }
        if (usesCommandLine(block.script) && server) {
          expect(await server.stop()).toBe(0);
          server = undefined;
        }
        if (usesServer(block.script) && !server) {
          server = await startServer({}, { cwd: checkout, port });
          key ??= (await server.waitFor(KEY_IN_BLOCK))[1];
        }
        if (block.script.includes(KEY_PLACEHOLDER) && !key)
          throw new Error(`${where} uses the key before a first start`);
        const script = block.script
          .replaceAll(KEY_PLACEHOLDER, key ?? '')
          .replaceAll(README_ORIGIN, `localhost:${port}`);

        const printed = await terminal.run(script).catch((error: Error) => {
          throw new Error(`${where} ${error.message}`);
        });
        expect({ where, failedRequest: printed.includes('"success":false') ? printed : null }).toEqual({
          where,
          failedRequest: null,
        });
        // A comment line holding a JSON object is the output the README promises for the command above it.
        for (const [, promised] of block.script.matchAll(/^# (\{.*\})$/gm)) {
          expect({ where, printed }).toEqual({ where, printed: expect.stringContaining(promised) });
        }
        ran++;
      }
    } finally {
      await server?.stop();
      await terminal.close();
      rmSync(checkout, { recursive: true, force: true });
    }
    expect(ran).toBeGreaterThan(5);
  });
});

describe('links of the documentation', () => {
  // Every folder of docs/ too: the decision records and the performance archive link to their neighbours.
  const documents = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).map((file) => join('docs', file)),
  ].filter((file) => file.endsWith('.md'));

  it.each(documents)('%s links only to files of the repository that exist', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const path = target.split('#')[0];
      if (path === '') continue; // an anchor in the same document
      const file = resolve(dirname(join(ROOT, document)), path);
      const inside = !/^[a-z]+:/i.test(target) && file.startsWith(`${ROOT}/`);
      expect({ target, insideRepository: inside, exists: existsSync(file) }).toEqual({
        target,
        insideRepository: true,
        exists: true,
      });
    }
  });
});
