import { BulkItemResultResponse } from '../../src/bulk/bulk';
import { Database } from '../../src/database/database';
import { onEmbeddedDatabase } from '../support/database-kind';
import { useTestApp } from '../support/use-test-app';

const WRITERS = 8;
const ITEMS = 200;

describe('POST /skills/bulk from many writers of one organisation at once', () => {
  // A short wait for a pooled connection: bulk writers that held every connection made the others answer 503.
  // The embedded database is one session, which each write holds in turn, so there it keeps the default wait.
  const suite = useTestApp({ config: onEmbeddedDatabase() ? {} : { databaseTimeoutMs: 1000 } });
  const { post } = suite.api;

  /**
   * Writer `writer`'s items: names of its own, an alias of its own on every other item, an alias every writer
   * shares on its first item (skills may share aliases), and on its second an alias that is the next writer's
   * second name (names and aliases stay apart: of two such items, whichever comes second fails).
   */
  const itemsOf = (writer: number) =>
    Array.from({ length: ITEMS }, (_v, index) => ({
      name: `Parallel ${writer}-${index}`,
      aliases: [
        ...(index % 2 === 0 ? [`pw ${writer}-${index}`] : []),
        ...(index === 0 ? ['parallel shared'] : []),
        ...(index === 1 ? [`Parallel ${(writer + 1) % WRITERS}-1`] : []),
      ],
    }));

  const sendAll = () =>
    Promise.all(
      Array.from({ length: WRITERS }, (_v, writer) =>
        post<BulkItemResultResponse[]>('/skills/bulk', { items: itemsOf(writer) }),
      ),
    );

  it('answers every request, twice, with each name once and no alias that is a name', async () => {
    for (const round of [1, 2]) {
      const responses = await sendAll();
      expect({
        round,
        answers: responses.map((response) => `${response.status} ${response.body.error?.code ?? ''}`),
      }).toEqual({
        round,
        answers: Array(WRITERS).fill('200 '),
      });
      const failed = responses.flatMap((response) =>
        response.body.data.filter((item) => item.status === 'failed').map((item) => item.index),
      );
      // Only the items naming another writer's name can fail.
      expect(failed.every((index) => index === 1)).toBe(true);
    }
    const [counts] = await suite.app
      .get(Database)
      .manager()
      .query<{ skills: number; names: number; sharedAliases: number; aliasNames: number }[]>(
        `SELECT (SELECT count(*)::int FROM skills WHERE organisation_id = $1) AS skills,
              (SELECT count(DISTINCT name_key)::int FROM skills WHERE organisation_id = $1) AS names,
              (SELECT count(DISTINCT skill_id)::int FROM skill_aliases
                WHERE organisation_id = $1 AND name_key = 'parallel shared') AS "sharedAliases",
              (SELECT count(*)::int FROM skill_aliases a
                 JOIN skills s ON s.organisation_id = a.organisation_id AND s.name_key = a.name_key
                WHERE a.organisation_id = $1) AS "aliasNames"`,
        [suite.tenant.organisationId],
      );
    expect(counts.names).toBe(counts.skills);
    expect(counts.skills).toBeGreaterThanOrEqual(WRITERS * (ITEMS - 1));
    expect(counts.sharedAliases).toBe(WRITERS);
    expect(counts.aliasNames).toBe(0);
  }, 300_000);
});
