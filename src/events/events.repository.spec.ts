import type { EntityManager } from 'typeorm';
import type { Database, Statement } from '../database/database';
import type { NewEvent } from './event-recording';
import { EventsRepository } from './events.repository';

const manager = {} as EntityManager;
const event: NewEvent = {
  name: 'employee.created',
  occurredAt: new Date('2026-01-31T09:00:00.000Z'),
  data: { id: 'e' },
  actor: { type: 'cli' },
  requestId: null,
  traceparent: null,
  employeeId: 'e',
};

/** An EventsRepository whose Database keeps what is sent with COMMIT, with the callback told its rows. */
function repository() {
  const sent: Array<{ statement: Statement; committed: (rows: { fannedOut: number }[]) => void }> = [];
  const database = {
    sendWithCommit: (
      _manager: EntityManager,
      statement: Statement,
      committed: (rows: { fannedOut: number }[]) => void,
    ) => sent.push({ statement, committed }),
  } as unknown as Database;
  return { events: new EventsRepository(database), sent };
}

describe('EventsRepository', () => {
  it('runs the registered fan-out in the recording statement over `recorded`, and tells it its count once committed', () => {
    const { events, sent } = repository();
    const committed = jest.fn();
    events.setFanOut({ sql: 'fan_out(recorded.organisation_id, recorded.event_ids)', committed });
    const [recorded] = events.recordWithCommit('org', [event], manager);
    const [{ statement }] = sent;
    expect(statement.text).toMatch(/^WITH recorded AS MATERIALIZED \(SELECT record_events_v2\(/);
    expect(statement.text).toContain('$1::uuid AS organisation_id, $2::uuid[] AS event_ids');
    expect(statement.text).toMatch(/SELECT fan_out\(recorded\.organisation_id, recorded\.event_ids\) AS "fannedOut"/);
    expect(statement.values.slice(0, 3)).toEqual(['org', [recorded.id], ['employee.created']]);
    expect(committed).not.toHaveBeenCalled();
    sent[0].committed([{ fannedOut: 2 }]);
    expect(committed).toHaveBeenCalledWith(2, manager);
  });

  it('writes no fan-out until one is registered', () => {
    const { events, sent } = repository();
    events.recordWithCommit('org', [event], manager);
    expect(sent[0].statement.text).toMatch(/SELECT 0 AS "fannedOut" FROM recorded$/);
    expect(() => sent[0].committed([{ fannedOut: 0 }])).not.toThrow();
  });
});
