import { EventEmitter2 } from '@nestjs/event-emitter';
import type { EntityManager } from 'typeorm';
import type { Database } from '../database/database';
import type { ChangeOrigin } from '../database/write-context';
import { DOMAIN_EVENT_BATCH, DomainEvents } from './domain-events';
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
 * origin, recording into `record`.
 */
function domainEvents(emitter: EventEmitter2, record = jest.fn(), originOfTransaction: ChangeOrigin | null = origin) {
  record.mockResolvedValue({
    id: 'event-id',
    name: 'skill.rated',
    body: Buffer.from('{}'),
    createdAt: recordedAt,
    fannedOut: 2,
  });
  const database = {
    inTransaction: (manager: EntityManager) => manager === inTransaction,
    originOf: (manager: EntityManager) => (manager === inTransaction ? (originOfTransaction ?? undefined) : undefined),
  } as Database;
  return new DomainEvents(emitter, database, { record } as unknown as EventsRepository);
}

describe('DomainEvents', () => {
  it('records the event in the change transaction, then emits it with its id and fan-out count and waits for the listeners', async () => {
    const emitter = new EventEmitter2();
    const received: unknown[] = [];
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- emitAsync awaits a listener's promise
    emitter.on('skill.rated', async (event: unknown) => {
      await new Promise((resolve) => setImmediate(resolve));
      received.push(event);
    });
    const record = jest.fn();
    const occurredAt = new Date('2026-01-31T09:00:00.000Z');
    await domainEvents(emitter, record).publish(
      inTransaction,
      'org',
      'skill.rated',
      { employeeId: 'e', rating },
      occurredAt,
    );
    expect(record).toHaveBeenCalledWith(
      'org',
      { name: 'skill.rated', occurredAt, data: { employeeId: 'e', rating }, changes: undefined, ...origin },
      inTransaction,
    );
    expect(received).toEqual([
      expect.objectContaining({ id: 'event-id', name: 'skill.rated', organisationId: 'org', recordedAt, fannedOut: 2 }),
    ]);
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
    const recordMany = jest.fn().mockResolvedValue({
      events: [
        { id: 'id-1', createdAt: recordedAt },
        { id: 'id-2', createdAt: recordedAt },
      ],
      fannedOut: 3,
    });
    const database = {
      inTransaction: (manager: EntityManager) => manager === inTransaction,
      originOf: () => origin,
    } as unknown as Database;
    const publisher = new DomainEvents(emitter, database, { recordMany } as unknown as EventsRepository);
    await publisher.publishMany(inTransaction, 'org', []);
    await publisher.publishMany(inTransaction, 'org', events);
    expect(recordMany).toHaveBeenCalledWith(
      'org',
      [
        { ...events[0], ...origin },
        { ...events[1], ...origin },
      ],
      inTransaction,
    );
    expect(batches).toEqual([
      {
        organisationId: 'org',
        events: [
          { ...events[0], id: 'id-1', recordedAt },
          { ...events[1], id: 'id-2', recordedAt },
        ],
        fannedOut: 3,
        manager: inTransaction,
      },
    ]);
    await expect(publisher.publishMany({} as EntityManager, 'org', events)).rejects.toThrow('outside a transaction');
  });
});
