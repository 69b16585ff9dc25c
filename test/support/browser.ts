import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser as Chromium, chromium, Page } from 'playwright-core';
import { has } from './requirements';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it), or another one named by CHROMIUM_PATH. */
export function chromiumPath(): string | undefined {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(path) ? path : undefined;
}

const NO_CHROMIUM = "needs Chromium (/usr/bin/chromium, Debian's package; .ci/run installs it, or set CHROMIUM_PATH)";
const NO_POSTGRES =
  'needs a PostgreSQL server for the service running as processes (TEST_DATABASE_URL, or one at 127.0.0.1:5432)';

/**
 * A describe that runs only where Chromium is (and PostgreSQL, when asked), else is skipped with the reason
 * printed and in its name, as test/support/requirements.ts does for servers.
 */
export function describeInBrowser(name: string, body: () => void, needs: { postgres?: boolean } = {}): void {
  const missing = !chromiumPath() ? NO_CHROMIUM : needs.postgres && !has('postgres') ? NO_POSTGRES : undefined;
  if (!missing) return describe(name, body);
  process.stderr.write(`skipped "${name}": ${missing}\n`);
  describe.skip(`${name} (skipped: ${missing})`, body);
}

/** The arguments the console's tests run Chromium with: headless, quiet, nothing fetched of its own accord. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  chromium: Chromium;
  /** Every URL a page of this browser asked for, in order. */
  requests: string[];
  /** A page in a context of its own: its own cookies, as another person's browser. */
  newPage(width?: number): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Chromium, on a fresh profile (Playwright makes a new user-data directory at each launch), recording every
 * request its pages make.
 */
export async function openBrowser(options: { ignoreHTTPSErrors?: boolean } = {}): Promise<Browser> {
  const launched = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  const requests: string[] = [];
  return {
    chromium: launched,
    requests,
    newPage: async (width = 1280) => {
      const context = await launched.newContext({
        viewport: { width, height: 800 },
        ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false,
      });
      context.on('request', (request) => requests.push(request.url()));
      return context.newPage();
    },
    close: () => launched.close(),
  };
}

/** The requests that went to none of `origins`. */
export function foreignRequests(requests: readonly string[], origins: readonly string[]): string[] {
  return requests.filter((url) => !url.startsWith('data:') && !origins.includes(new URL(url).origin));
}

let axeSource: string | undefined;

/**
 * axe-core's violations of impact serious or critical on the page (docs/api-decisions.md: WCAG 2.1 AA). axe is put into
 * the page through the DevTools protocol (page.evaluate), which the page's CSP does not govern, so the page is
 * checked under the policy it is served with.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = await page.evaluate<Array<{ id: string; impact: string; targets: string[] }>>(`
    axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
      .then((result) => result.violations.map(({ id, impact, nodes }) =>
        ({ id, impact, targets: nodes.map(({ target }) => JSON.stringify(target)) })))`);
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, impact, targets }) => `${impact} ${id}: ${targets.join(', ')}`);
}

/** Whether the page scrolls sideways at its current width. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');
}

/**
 * Saves a screenshot as <name>.png into CONSOLE_SCREENSHOTS when it names a directory (the README's pictures
 * come from there); otherwise takes none.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const directory = process.env.CONSOLE_SCREENSHOTS;
  if (!directory) return;
  mkdirSync(directory, { recursive: true });
  await page.screenshot({ path: join(directory, `${name}.png`), fullPage: true });
}
