import type { EntityManager } from 'typeorm';
import type { Database } from '../database/database';
import type { ChangeOrigin } from '../database/write-context';
import { DomainEvents } from './domain-events';
import type { EventsRepository } from './events.repository';

const E = '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e6f';
const E1 = '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e70';
const E2 = '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e71';

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
const origin: ChangeOrigin = { actor: { type: 'api_key', id: 'key' }, requestId: 'req-1', traceparent: null };

/**
 * DomainEvents whose Database knows only `inTransaction` as running, with `originOfTransaction` as its
 * origin, recording with `recordWithCommit`.
 */
function domainEvents(recordWithCommit: jest.Mock, originOfTransaction: ChangeOrigin | null = origin) {
  const database = {
    inTransaction: (manager: EntityManager) => manager === inTransaction,
    originOf: (manager: EntityManager) => (manager === inTransaction ? (originOfTransaction ?? undefined) : undefined),
  } as Database;
  return new DomainEvents(database, { recordWithCommit } as unknown as EventsRepository);
}

describe('DomainEvents', () => {
  it("records the event with the change's transaction, its origin and the employee it names", async () => {
    const recordWithCommit = jest.fn();
    const occurredAt = new Date('2026-01-31T09:00:00.000Z');
    await domainEvents(recordWithCommit).publish(
      inTransaction,
      'org',
      'skill.rated',
      { employeeId: E, rating },
      occurredAt,
    );
    expect(recordWithCommit).toHaveBeenCalledWith(
      'org',
      [
        {
          name: 'skill.rated',
          occurredAt,
          data: { employeeId: E, rating },
          changes: undefined,
          employeeId: E,
          ...origin,
        },
      ],
      inTransaction,
    );
  });

  it('refuses to publish with a manager that is not in a running transaction, and records nothing', async () => {
    const record = jest.fn();
    const publishing = domainEvents(record).publish({} as EntityManager, 'org', 'skill.rated', {
      employeeId: E,
      rating,
    });
    await expect(publishing).rejects.toThrow('skill.rated published outside a transaction');
    expect(record).not.toHaveBeenCalled();
  });

  it('refuses to publish in a transaction opened without the origin of its changes', async () => {
    const record = jest.fn();
    const publishing = domainEvents(record, null).publish(inTransaction, 'org', 'skill.rated', {
      employeeId: E,
      rating,
    });
    await expect(publishing).rejects.toThrow('skill.rated published in a transaction without its origin');
    expect(record).not.toHaveBeenCalled();
  });

  it('records many events in one call, in order, and nothing for none', async () => {
    const at = new Date('2026-01-31T09:00:00.000Z');
    const events = [
      { name: 'skill.rated' as const, data: { employeeId: E1, rating }, occurredAt: at },
      { name: 'skill.rated' as const, data: { employeeId: E2, rating }, occurredAt: at },
    ];
    const recordWithCommit = jest.fn();
    const publisher = domainEvents(recordWithCommit);
    await publisher.publishMany(inTransaction, 'org', []);
    await publisher.publishMany(inTransaction, 'org', events);
    expect(recordWithCommit.mock.calls).toEqual([
      [
        'org',
        [
          { ...events[0], employeeId: E1, ...origin },
          { ...events[1], employeeId: E2, ...origin },
        ],
        inTransaction,
      ],
    ]);
    await expect(publisher.publishMany({} as EntityManager, 'org', events)).rejects.toThrow('outside a transaction');
  });

  it('names the employee a position replaces, and none for a skill', async () => {
    const recordWithCommit = jest.fn();
    const at = new Date('2026-01-31T09:00:00.000Z');
    const position = {
      id: 'p',
      name: 'Head of Data',
      description: null,
      department: null,
      status: 'OPEN' as const,
      mustBeFilledBy: null,
      requiredSkills: [],
    };
    await domainEvents(recordWithCommit).publishMany(inTransaction, 'org', [
      {
        name: 'position.updated',
        data: { ...position, replacesPerson: { id: E, firstName: 'A', lastName: 'B' } },
        occurredAt: at,
      },
      { name: 'position.updated', data: { ...position, replacesPerson: null }, occurredAt: at },
      { name: 'skill.deleted', data: { id: 's' }, occurredAt: at },
    ]);
    const [[, recorded]] = recordWithCommit.mock.calls as [[string, Array<{ employeeId: string | null }>]];
    expect(recorded.map((event) => event.employeeId)).toEqual([E, null, null]);
  });

  it('names no employee by a value that is not a UUID, as no employee has it for an id', async () => {
    const recordWithCommit = jest.fn();
    await domainEvents(recordWithCommit).publish(inTransaction, 'org', 'skill.rated', { employeeId: 'e', rating });
    const [[, recorded]] = recordWithCommit.mock.calls as [[string, Array<{ employeeId: string | null }>]];
    expect(recorded[0].employeeId).toBeNull();
  });
});
