import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { EntityManager } from 'typeorm';
import type { EmployeeResponse } from '../employees/dto/employee.response';
import type { RatingResponse } from '../ratings/dto/rating.response';
import type { PositionResponse } from '../positions/dto/position.response';

/**
 * The payload (`data`) of each event the service emits, as docs/api-decisions.md maps them.
 * Feature modules narrow these to their response types.
 */
export interface DomainEventMap {
  'employee.created': EmployeeResponse;
  'employee.updated': EmployeeResponse;
  'employee.deactivated': EmployeeResponse;
  'skill.rated': { employeeId: string; rating: RatingResponse };
  'position.updated': PositionResponse;
}

export type DomainEventName = keyof DomainEventMap;

export const DOMAIN_EVENT_NAMES: readonly DomainEventName[] = [
  'employee.created',
  'employee.updated',
  'employee.deactivated',
  'skill.rated',
  'position.updated',
];

export interface DomainEvent<K extends DomainEventName = DomainEventName> {
  name: K;
  organisationId: string;
  occurredAt: Date;
  data: DomainEventMap[K];
  /** The transaction of the change: listeners write with it, so they commit or roll back with the change. */
  manager: EntityManager;
}

/** Emits domain events inside the writing transaction and waits for every listener. */
@Injectable()
export class DomainEvents {
  constructor(private readonly emitter: EventEmitter2) {}

  async publish<K extends DomainEventName>(
    manager: EntityManager,
    organisationId: string,
    name: K,
    data: DomainEventMap[K],
    occurredAt: Date = new Date(),
  ): Promise<void> {
    const event: DomainEvent<K> = { name, organisationId, occurredAt, data, manager };
    await this.emitter.emitAsync(name, event);
  }
}
