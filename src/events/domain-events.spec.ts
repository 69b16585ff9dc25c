import { EventEmitter2 } from '@nestjs/event-emitter';
import type { EntityManager } from 'typeorm';
import { DOMAIN_EVENT_BATCH, DomainEvents } from './domain-events';

const inTransaction = { queryRunner: { isTransactionActive: true } } as unknown as EntityManager;
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

describe('DomainEvents', () => {
  it('emits to the listeners and waits for them', async () => {
    const emitter = new EventEmitter2();
    const received: unknown[] = [];
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- emitAsync awaits a listener's promise
    emitter.on('skill.rated', async (event: unknown) => {
      await new Promise((resolve) => setImmediate(resolve));
      received.push(event);
    });
    await new DomainEvents(emitter).publish(inTransaction, 'org', 'skill.rated', { employeeId: 'e', rating });
    expect(received).toEqual([expect.objectContaining({ name: 'skill.rated', organisationId: 'org' })]);
  });

  it.each([
    ['without a query runner (the pool)', {}],
    ['whose transaction is not active', { queryRunner: { isTransactionActive: false } }],
  ])('refuses to publish with a manager %s, and emits nothing', async (_case, manager) => {
    const emitter = new EventEmitter2();
    const listener = jest.fn();
    emitter.on('skill.rated', listener);
    const publishing = new DomainEvents(emitter).publish(manager as EntityManager, 'org', 'skill.rated', {
      employeeId: 'e',
      rating,
    });
    await expect(publishing).rejects.toThrow('skill.rated published outside a transaction');
    expect(listener).not.toHaveBeenCalled();
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
    const publisher = new DomainEvents(emitter);
    await publisher.publishMany(inTransaction, 'org', []);
    await publisher.publishMany(inTransaction, 'org', events);
    expect(batches).toEqual([{ organisationId: 'org', events, manager: inTransaction }]);
    await expect(publisher.publishMany({} as EntityManager, 'org', events)).rejects.toThrow('outside a transaction');
  });
});
