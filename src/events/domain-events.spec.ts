import { EventEmitter2 } from '@nestjs/event-emitter';
import type { EntityManager } from 'typeorm';
import type { Database } from '../database/database';
import type { ChangeOrigin } from '../database/write-context';
import { DOMAIN_EVENT_BATCH, DomainEvent, DomainEventBatch, DomainEvents } from './domain-events';
import type { EventsRepository } from './events.repository';

const inTransaction = {} as EntityManager;
const rating = {
  ratingId: 'r',
  personSkillId: 'p',
  skillId: 's',
  skillName: 'Go',
  score: 3,
  ratingType: 'LLM_RATING' as const,
  comment: null,
  createdAt: '2026-01-31T09:00:00.000Z',
};
const recordedAt = new Date('2026-01-31T09:00:01.000Z');
const origin: ChangeOrigin = { actor: { type: 'api_key', id: 'key' }, requestId: 'req-1', traceparent: null };

/**
 * DomainEvents whose Database knows only `inTransaction` as running, with `originOfTransaction` as its
 * origin, recording with `recordWithCommit`: each event gets the id `id-N`.
 */
function domainEvents(
  emitter: EventEmitter2,
  recordWithCommit = jest.fn(),
  originOfTransaction: ChangeOrigin | null = origin,
) {
  recordWithCommit.mockImplementation((_organisationId: string, events: Array<{ name: string }>) =>
    events.map(({ name }, index) => ({ id: `id-${index + 1}`, name, body: Buffer.from('{}'), createdAt: recordedAt })),
  );
  const database = {
    inTransaction: (manager: EntityManager) => manager === inTransaction,
    originOf: (manager: EntityManager) => (manager === inTransaction ? (originOfTransaction ?? undefined) : undefined),
  } as Database;
  return new DomainEvents(emitter, database, { recordWithCommit } as unknown as EventsRepository);
}

/** The fan-out count `recordWithCommit` was told to report once the transaction commits: its callback. */
function commitOf(recordWithCommit: jest.Mock): (fannedOut: number) => void {
  return recordWithCommit.mock.calls[0][3] as (fannedOut: number) => void;
}

describe('DomainEvents', () => {
  it('records the event with the change transaction, emits it with its id, waits for the listeners, and tells them the fan-out count once it commits', async () => {
    const emitter = new EventEmitter2();
    const received: DomainEvent[] = [];
    const fannedOut = jest.fn();
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- emitAsync awaits a listener's promise
    emitter.on('skill.rated', async (event: DomainEvent) => {
      await new Promise((resolve) => setImmediate(resolve));
      event.whenCommitted(fannedOut);
      received.push(event);
    });
    const recordWithCommit = jest.fn();
    const occurredAt = new Date('2026-01-31T09:00:00.000Z');
    await domainEvents(emitter, recordWithCommit).publish(
      inTransaction,
      'org',
      'skill.rated',
      { employeeId: 'e', rating },
      occurredAt,
    );
    expect(recordWithCommit).toHaveBeenCalledWith(
      'org',
      [{ name: 'skill.rated', occurredAt, data: { employeeId: 'e', rating }, changes: undefined, ...origin }],
      inTransaction,
      expect.any(Function),
    );
    expect(received).toEqual([
      expect.objectContaining({ id: 'id-1', name: 'skill.rated', organisationId: 'org', recordedAt }),
    ]);
    expect(fannedOut).not.toHaveBeenCalled();
    commitOf(recordWithCommit)(2);
    expect(fannedOut).toHaveBeenCalledWith(2);
  });

  it('refuses to publish with a manager that is not in a running transaction, and records and emits nothing', async () => {
    const emitter = new EventEmitter2();
    const listener = jest.fn();
    emitter.on('skill.rated', listener);
    const record = jest.fn();
    const publishing = domainEvents(emitter, record).publish({} as EntityManager, 'org', 'skill.rated', {
      employeeId: 'e',
      rating,
    });
    await expect(publishing).rejects.toThrow('skill.rated published outside a transaction');
    expect(record).not.toHaveBeenCalled();
    expect(listener).not.toHaveBeenCalled();
  });

  it('refuses to publish in a transaction opened without the origin of its changes', async () => {
    const record = jest.fn();
    const publishing = domainEvents(new EventEmitter2(), record, null).publish(inTransaction, 'org', 'skill.rated', {
      employeeId: 'e',
      rating,
    });
    await expect(publishing).rejects.toThrow('skill.rated published in a transaction without its origin');
    expect(record).not.toHaveBeenCalled();
  });

  it('publishes many events as one batch, in order, and nothing for none', async () => {
    const emitter = new EventEmitter2();
    const batches: unknown[] = [];
    emitter.on(DOMAIN_EVENT_BATCH, (batch: unknown) => batches.push(batch));
    const at = new Date('2026-01-31T09:00:00.000Z');
    const events = [
      { name: 'skill.rated' as const, data: { employeeId: 'e1', rating }, occurredAt: at },
      { name: 'skill.rated' as const, data: { employeeId: 'e2', rating }, occurredAt: at },
    ];
    const recordWithCommit = jest.fn();
    const publisher = domainEvents(emitter, recordWithCommit);
    await publisher.publishMany(inTransaction, 'org', []);
    await publisher.publishMany(inTransaction, 'org', events);
    expect(recordWithCommit).toHaveBeenCalledWith(
      'org',
      [
        { ...events[0], ...origin },
        { ...events[1], ...origin },
      ],
      inTransaction,
      expect.any(Function),
    );
    expect(batches).toEqual([
      {
        organisationId: 'org',
        events: [
          { ...events[0], id: 'id-1', recordedAt },
          { ...events[1], id: 'id-2', recordedAt },
        ],
        manager: inTransaction,
        whenCommitted: expect.any(Function),
      },
    ]);
    const fannedOut = jest.fn();
    (batches[0] as DomainEventBatch).whenCommitted(fannedOut);
    commitOf(recordWithCommit)(3);
    expect(fannedOut).toHaveBeenCalledWith(3);
    await expect(publisher.publishMany({} as EntityManager, 'org', events)).rejects.toThrow('outside a transaction');
  });
});
