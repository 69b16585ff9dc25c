/** One page of GET /events, as the envelope's `data` and `meta` give it. */
export interface FeedPage<E> {
  data: E[];
  meta: { hasMore: boolean; nextAfter: string | null };
}

/**
 * Every event the feed lists, paging with `after` as a client would, once `ready` holds of them: an event is
 * listed only once every older transaction of the database server has ended, which may take a moment while
 * other test files write. `page` answers GET /events with the query it is given (`?limit=100…`).
 */
export async function readFeed<E>(
  page: (query: string) => Promise<FeedPage<E>>,
  ready: (events: E[]) => boolean,
  filter = '',
): Promise<E[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const events: E[] = [];
    let after = '';
    for (;;) {
      const { data, meta } = await page(`?limit=100${filter}${after}`);
      events.push(...data);
      if (!meta.hasMore) break;
      after = `&after=${meta.nextAfter}`;
    }
    if (ready(events)) return events;
    if (Date.now() > deadline) throw new Error(`the feed did not become ready: ${JSON.stringify(events)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
