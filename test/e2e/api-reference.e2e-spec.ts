import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { servedDocument } from '../support/openapi-document';
import { useTestApp } from '../support/use-test-app';

const REFERENCE = join(__dirname, '..', '..', 'docs', 'api-reference.md');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

describe('docs/api-reference.md', () => {
  const suite = useTestApp({ tenant: 'none' });

  it('lists every route of the served OpenAPI document in an endpoint table (method, then path)', () => {
    const rows = readFileSync(REFERENCE, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    const documented = new Set(
      rows.flatMap(([, method, path]) => {
        const quoted = /^`([^`]+)`/.exec(path ?? '');
        return quoted ? [`${method} ${quoted[1]}`] : [];
      }),
    );
    const routes = Object.entries(servedDocument(suite.app).paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((route) => !documented.has(route))).toEqual([]);
  });
});
