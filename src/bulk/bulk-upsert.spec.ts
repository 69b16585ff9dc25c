import { IsInt, IsOptional, IsString } from 'class-validator';
import { ConflictError } from '../errors/errors';
import { BulkItemOutcome } from './bulk';
import { planUpserts, stringField, UpsertRules } from './bulk-upsert';

interface Thing {
  id: string;
  key: string;
  size: number;
  updatedAt: Date;
}

class CreateThing {
  @IsString() key: string;
  @IsInt() size: number;
}

class UpdateThing {
  @IsOptional() @IsString() key?: string;
  @IsOptional() @IsInt() size?: number;
}

const EARLIER = new Date('2026-01-01T00:00:00.000Z');
const NOW = new Date('2026-02-01T00:00:00.000Z');

function rules(acrossItems?: () => (thing: Thing) => void): UpsertRules<Thing, CreateThing, UpdateThing, never> {
  let created = 0;
  return {
    repository: { updateMany: jest.fn(), insertMany: jest.fn(), update: jest.fn(), insert: jest.fn() },
    lockByKeys: jest.fn(),
    keyOf: (item) => stringField(item, 'key')?.toLowerCase(),
    storedKeyOf: (thing) => thing.key.toLowerCase(),
    duplicateKeyMessage: 'An earlier item has this key',
    create: {
      body: CreateThing,
      build: (_organisation, input, now) => ({ id: `new-${created++}`, ...input, updatedAt: now }),
    },
    update: { body: UpdateThing, apply: (thing, input) => Object.assign(thing, input) },
    acrossItems,
    eventsOf: () => [],
  };
}

function plan(items: unknown[], stored: Thing[], upsertRules = rules()) {
  const outcomes = items.map((_item, index) => new BulkItemOutcome(index));
  const byKey = new Map(stored.map((thing) => [thing.key.toLowerCase(), thing]));
  const planned = planUpserts('org', items, outcomes, upsertRules, byKey, NOW);
  return { planned, outcomes: outcomes.map((outcome) => outcome.toResponse()) };
}

describe('planUpserts', () => {
  const stored: Thing = { id: 'a', key: 'Alpha', size: 1, updatedAt: EARLIER };

  it('creates what no key matches, updates a copy of what one matches, and stamps both with the time', () => {
    const { planned, outcomes } = plan(
      [
        { key: 'ALPHA', size: 2 },
        { key: 'beta', size: 3 },
      ],
      [stored],
    );
    expect(planned.map(({ before, after }) => ({ before, after }))).toEqual([
      { before: stored, after: { id: 'a', key: 'ALPHA', size: 2, updatedAt: NOW } },
      { before: null, after: { id: 'new-0', key: 'beta', size: 3, updatedAt: NOW } },
    ]);
    expect(stored).toEqual({ id: 'a', key: 'Alpha', size: 1, updatedAt: EARLIER });
    expect(outcomes.every((outcome) => outcome.error === null)).toBe(true);
  });

  it('checks an update against the PATCH body and a create against the POST body', () => {
    const { planned, outcomes } = plan([{ key: 'alpha' }, { key: 'beta' }, { key: 'gamma', size: 'big' }], [stored]);
    expect(planned.map(({ after }) => after.id)).toEqual(['a']);
    expect(outcomes.slice(1).map(({ status, error }) => [status, error?.code])).toEqual([
      ['failed', 'VALIDATION_ERROR'],
      ['failed', 'VALIDATION_ERROR'],
    ]);
  });

  it('fails an item whose key an earlier item has, valid or not, with 409', () => {
    const { planned, outcomes } = plan(
      [
        { key: 'beta', size: 'big' },
        { key: 'BETA', size: 1 },
        { key: 'gamma', size: 1 },
        { key: 'Gamma', size: 2 },
      ],
      [],
    );
    expect(planned.map(({ after }) => after.key)).toEqual(['gamma']);
    expect(outcomes.map(({ error }) => error && [error.code, error.message])).toEqual([
      ['VALIDATION_ERROR', expect.any(String)],
      ['CONFLICT', 'An earlier item has this key'],
      null,
      ['CONFLICT', 'An earlier item has this key'],
    ]);
  });

  it('fails an item whose key an earlier item has with 409 even when its body is invalid too', () => {
    const { planned, outcomes } = plan(
      [
        { key: 'beta', size: 1 },
        { key: 'BETA', size: 'big' },
        { key: 'alpha', size: 2 },
        { key: 'Alpha', unknown: true },
      ],
      [stored],
    );
    expect(planned.map(({ after }) => after.key)).toEqual(['beta', 'alpha']);
    expect(outcomes.map(({ error }) => error && [error.code, error.message])).toEqual([
      null,
      ['CONFLICT', 'An earlier item has this key'],
      null,
      ['CONFLICT', 'An earlier item has this key'],
    ]);
  });

  it('runs the rule across items on each changed resource in item order, afresh for each request', () => {
    const sizes = () => {
      const seen = new Set<number>();
      return (thing: Thing) => {
        if (seen.has(thing.size)) throw new ConflictError('An earlier item has this size');
        seen.add(thing.size);
      };
    };
    const upsertRules = rules(sizes);
    const items = [
      { key: 'alpha', size: 5 },
      { key: 'beta', size: 5 },
    ];
    for (let request = 0; request < 2; request++) {
      const { planned, outcomes } = plan(items, [stored], upsertRules);
      expect(planned.map(({ after }) => after.id)).toEqual(['a']);
      expect(outcomes[1].error?.message).toBe('An earlier item has this size');
    }
  });
});

describe('stringField', () => {
  it('answers the field of an object when it is a string, else undefined', () => {
    expect(stringField({ name: 'x' }, 'name')).toBe('x');
    expect(stringField({ name: 5 }, 'name')).toBeUndefined();
    expect(stringField(null, 'name')).toBeUndefined();
    expect(stringField('name', 'name')).toBeUndefined();
  });
});
