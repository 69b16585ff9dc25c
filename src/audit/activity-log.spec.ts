import type { Actor } from '../database/write-context';
import { ActivityLog } from './activity-log';
import { ActivityEntry, ActivityRepository } from './activity.repository';

function logWith(inserted: ActivityEntry[]): ActivityLog {
  const repository = {
    insert: (_organisationId: string, entry: ActivityEntry) => Promise.resolve(void inserted.push(entry)),
  };
  return new ActivityLog(repository as unknown as ActivityRepository);
}

describe('ActivityLog.record', () => {
  const person: Actor = { type: 'console', id: 'u1', email: 'ana@example.com', clientAddress: '192.0.2.1' };

  it.each<[Actor, string, string | null]>([
    [person, 'ana@example.com', '192.0.2.1'],
    [{ type: 'visitor', claimed: 'who@example.com', clientAddress: '192.0.2.2' }, 'who@example.com', '192.0.2.2'],
    [{ type: 'cli' }, 'cli', null],
    [{ type: 'first_start' }, 'first start', null],
  ])('names %j as %s, from %s', async (actor, who, clientAddress) => {
    const inserted: ActivityEntry[] = [];
    await logWith(inserted).record('org', actor, 'key created', 'k (1)');
    expect(inserted).toEqual([expect.objectContaining({ actor: who, clientAddress, action: 'key created' })]);
  });

  it.each<Actor>([{ type: 'api_key', id: 'k1' }, { type: 'retention' }])(
    'leaves the changes of %j to the feed',
    async (actor) => {
      const inserted: ActivityEntry[] = [];
      await logWith(inserted).record('org', actor, 'endpoint added', 'https://example.com');
      expect(inserted).toEqual([]);
    },
  );
});
