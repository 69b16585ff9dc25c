/**
 * The lists read by cursor, through the same generated client as flow.ts (and compiled and run the same
 * way, with API_ORIGIN and API_KEY): a page-mode first page, then `meta.nextCursor` to the end, reading
 * only the fields cursor mode has (limit, hasNextPage, nextCursor). Prints the names of the skills it
 * read, in order, and the fields of each cursor page's meta, as one JSON object on stdout.
 */
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths } from './schema';
import { check, environment, expectData } from './support';

async function main(): Promise<void> {
  const api = createClient<paths>({
    baseUrl: `${environment('API_ORIGIN')}/api/v1`,
    headers: { Authorization: `Bearer ${environment('API_KEY')}` },
  });
  const suffix = randomUUID().slice(0, 8);
  for (const name of ['Alpha', 'Beta', 'Gamma']) {
    await expectData(api.POST('/skills', { body: { name: `${name} ${suffix}` } }), 201);
  }

  const first = await expectData(api.GET('/skills', { params: { query: { search: suffix, limit: 1 } } }), 200);
  check(first.meta.total === 3 && first.meta.hasNextPage, 'three skills counted on the first page');
  const names = first.data.map(({ name }) => name);
  const cursorMetaFields: string[] = [];
  let cursor = first.meta.nextCursor;
  while (cursor !== null) {
    const page = await expectData(api.GET('/skills', { params: { query: { search: suffix, limit: 1, cursor } } }), 200);
    cursorMetaFields.push(Object.keys(page.meta).sort().join(','));
    check(page.meta.limit === 1 && page.meta.hasNextPage === (page.meta.nextCursor !== null), 'the cursor meta');
    names.push(...page.data.map(({ name }) => name));
    cursor = page.meta.nextCursor;
  }
  process.stdout.write(JSON.stringify({ names, cursorMetaFields }));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
