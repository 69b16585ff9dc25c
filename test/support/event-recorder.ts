import { INestApplication } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Database } from '../../src/database/database';
import type { DomainEvent, DomainEventBatch, DomainEventName } from '../../src/events/domain-events';

export interface RecordedEvent {
  name: DomainEventName;
  /** The payload as a webhook body carries it (through JSON). */
  data: unknown;
  occurredAt: string;
  /** Whether the event was published inside an open transaction of the change. */
  inTransaction: boolean;
}

/**
 * Records the domain events the app publishes, per organisation, so a test can assert exactly
 * which events a call emitted. Each test file makes its own tenants, so files never see each
 * other's events even though the emitter is global to an app.
 */
export class EventRecorder {
  private readonly byOrganisation = new Map<string, RecordedEvent[]>();
  private readonly listener = (_name: string | string[], event: DomainEvent | DomainEventBatch) => {
    if (!event || typeof event !== 'object' || !('organisationId' in event)) return;
    const recorded = this.byOrganisation.get(event.organisationId) ?? [];
    // A batch (publishMany) is its events, in order.
    for (const { name, data, occurredAt } of 'events' in event ? event.events : [event]) {
      recorded.push({
        name,
        data: JSON.parse(JSON.stringify(data)),
        occurredAt: occurredAt.toISOString(),
        inTransaction: this.database.inTransaction(event.manager),
      });
    }
    this.byOrganisation.set(event.organisationId, recorded);
  };

  private constructor(
    private readonly emitter: EventEmitter2,
    private readonly database: Database,
  ) {
    emitter.onAny(this.listener);
  }

  static attach(app: INestApplication): EventRecorder {
    return new EventRecorder(app.get(EventEmitter2), app.get(Database));
  }

  /** The events of one organisation, oldest first. */
  of(organisationId: string): RecordedEvent[] {
    return [...(this.byOrganisation.get(organisationId) ?? [])];
  }

  /** Names of the events of one organisation, oldest first. */
  namesOf(organisationId: string): DomainEventName[] {
    return this.of(organisationId).map((event) => event.name);
  }

  /** Forgets what one organisation emitted so far, so the next assertion sees only what follows. */
  clear(organisationId: string): void {
    this.byOrganisation.delete(organisationId);
  }

  detach(): void {
    this.emitter.offAny(this.listener);
  }
}
