import { Type } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { ConflictError } from '../errors/errors';
import { BulkItemOutcome, BulkResult, failItemOn, PlannedChange, validateItem, writeChanges } from './bulk';

/** A resource a bulk upsert writes: every item that changes one stamps it with the request's time. */
export interface Upsertable {
  id: string;
  updatedAt: Date;
}

/**
 * The writes of the feature's repository, organisation first as everywhere. An update whose values equal the
 * stored ones writes nothing: updateMany answers the ids it wrote, update whether it wrote.
 */
export interface UpsertRepository<T> {
  updateMany(organisationId: string, resources: T[], manager: EntityManager): Promise<string[]>;
  insertMany(organisationId: string, resources: T[], manager: EntityManager): Promise<void>;
  update(organisationId: string, resource: T, updatedAt: Date, manager: EntityManager): Promise<boolean>;
  insert(organisationId: string, resource: T, manager: EntityManager): Promise<void>;
}

/** Where the events of the changes go: recorded in the transaction that makes the changes (DomainEvents). */
export interface EventSink<E> {
  publishMany(manager: EntityManager, organisationId: string, events: E[]): Promise<void>;
}

/**
 * What sets one feature's bulk upsert apart: how an item finds its resource, the POST and PATCH rules, and the
 * events a change records.
 */
export interface UpsertRules<T extends Upsertable, C extends object, U extends object, E> {
  repository: UpsertRepository<T>;
  /** The stored resources with these keys, locked until the transaction ends. */
  lockByKeys(organisationId: string, keys: string[], manager: EntityManager): Promise<T[]>;
  /** The item's key as keys are compared (lower case where case is ignored); undefined when it has none. */
  keyOf(item: unknown): string | undefined;
  /** A stored resource's key, as keyOf writes it. */
  storedKeyOf(resource: T): string;
  /** The 409 message of an item whose key an earlier item of the request has. */
  duplicateKeyMessage: string;
  /** An item that matches no resource is a POST body: it creates one. */
  create: { body: Type<C>; build(organisationId: string, input: C, now: Date): T };
  /** An item that matches a resource is a PATCH body of it. */
  update: { body: Type<U>; apply(resource: T, input: U): void };
  /**
   * A rule across the items of one request, made anew for each: it sees every item's resource as changed, in
   * item order, and throws an AppError to fail the item.
   */
  acrossItems?(): (resource: T) => void;
  /** What the POST or PATCH would have recorded for the change, as of `now`. */
  eventsOf(change: PlannedChange<T>, now: Date): E[];
  /**
   * Locks, before anything is written and in one order for every writer, what writing the planned resources
   * locks (unique names): when the set-based write fails, the items are written one by one, and locks taken item
   * by item, in item order, could wait in a circle with another writer's (a deadlock, 500).
   */
  lockPlanned?(organisationId: string, resources: T[], manager: EntityManager): Promise<void>;
  /**
   * Checks the valid items' changes against their locked resources before anything is written (the versions
   * an item names: If-Match and Base-Version item by item), failing the items it refuses with an AppError each.
   */
  checkPlanned?(
    organisationId: string,
    items: unknown[],
    planned: PlannedChange<T>[],
    manager: EntityManager,
  ): Promise<void>;
}

/**
 * POST …/bulk of employees or skills: each item is a POST or a PATCH of the resource its key matches, checked
 * by the same DTOs and rules as those, written set-based in one transaction (see writeChanges) with the events
 * of the items written, in item order.
 */
export function upsertItems<T extends Upsertable, C extends object, U extends object, E>(
  database: Database,
  events: EventSink<E>,
  organisationId: string,
  items: unknown[],
  rules: UpsertRules<T, C, U, E>,
  write: WriteContext,
): Promise<BulkResult> {
  return database.transaction(async (manager) => {
    const outcomes = items.map((_item, index) => new BulkItemOutcome(index));
    const keys = [...new Set(items.map((item) => rules.keyOf(item)).filter((key) => key !== undefined))];
    const stored = await rules.lockByKeys(organisationId, keys, manager);
    const byKey = new Map(stored.map((resource) => [rules.storedKeyOf(resource), resource]));
    const now = new Date();
    let planned = planUpserts(organisationId, items, outcomes, rules, byKey, now);
    if (rules.checkPlanned) {
      await rules.checkPlanned(organisationId, items, planned, manager);
      planned = planned.filter((change) => change.outcome.pending);
    }
    if (rules.lockPlanned) {
      await rules.lockPlanned(
        organisationId,
        planned.map((change) => change.after),
        manager,
      );
    }
    const { repository } = rules;
    const written = await writeChanges(database, manager, planned, {
      // Updates go first, so a unique value one of them frees is free for a resource created in the same request.
      many: async (updates, creates) => {
        const updated = await repository.updateMany(organisationId, updates, manager);
        await repository.insertMany(organisationId, creates, manager);
        return updated;
      },
      one: ({ before, after }) =>
        before
          ? repository.update(organisationId, after, after.updatedAt, manager)
          : repository.insert(organisationId, after, manager).then(() => true),
    });
    await events.publishMany(
      manager,
      organisationId,
      written.flatMap((change) => rules.eventsOf(change, now)),
    );
    return new BulkResult(outcomes.map((outcome) => outcome.toResponse()));
  }, write);
}

/**
 * Fails each item whose key an earlier item has, then validates the others against their resource (`byKey`, by
 * key), fails the invalid ones, and answers the changes to write, in item order.
 */
export function planUpserts<T extends Upsertable, C extends object, U extends object>(
  organisationId: string,
  items: unknown[],
  outcomes: BulkItemOutcome[],
  rules: UpsertRules<T, C, U, unknown>,
  byKey: Map<string, T>,
  now: Date,
): PlannedChange<T>[] {
  const planned: PlannedChange<T>[] = [];
  const seenKeys = new Set<string>();
  const checkAcrossItems = rules.acrossItems?.();
  for (const [index, item] of items.entries()) {
    const outcome = outcomes[index];
    const key = rules.keyOf(item);
    try {
      // Before validation: an earlier item's key is CONFLICT whatever else is wrong with the item
      // (docs/api-decisions.md).
      if (key !== undefined && seenKeys.has(key)) throw new ConflictError(rules.duplicateKeyMessage);
      const before = key === undefined ? undefined : byKey.get(key);
      const input = before ? validateItem(rules.update.body, item) : validateItem(rules.create.body, item);
      // A valid item has a key: both bodies require it.
      seenKeys.add(key!);
      const after = before ? { ...before } : rules.create.build(organisationId, input as C, now);
      if (before) rules.update.apply(after, input as U);
      checkAcrossItems?.(after);
      after.updatedAt = now;
      planned.push({ outcome, before: before ?? null, after });
    } catch (error) {
      if (key !== undefined) seenKeys.add(key);
      failItemOn(outcome, error);
    }
  }
  return planned;
}

/** The item's `field` when it is a string (a key); the item's validation reports anything else. */
export function stringField(item: unknown, field: string): string | undefined {
  const value = (item as Record<string, unknown> | null)?.[field];
  return typeof value === 'string' ? value : undefined;
}
