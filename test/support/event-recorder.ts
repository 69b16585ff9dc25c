import { INestApplication } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../src/database/database';
import type { DomainEventName } from '../../src/events/domain-events';
import type { NewEvent } from '../../src/events/event-recording';
import { EventsRepository } from '../../src/events/events.repository';

export interface RecordedEvent {
  name: DomainEventName;
  /** The payload as a webhook body carries it (through JSON). */
  data: unknown;
  occurredAt: string;
  /** Whether the event was published inside an open transaction of the change. */
  inTransaction: boolean;
}

/**
 * Records the domain events the app publishes, per organisation, as the event store is handed them
 * (EventsRepository.recordWithCommit, which every publication goes through), so a test can assert exactly
 * which events a call emitted. Each test file makes its own tenants, so files never see each other's events.
 */
export class EventRecorder {
  private readonly byOrganisation = new Map<string, RecordedEvent[]>();
  private readonly spy: jest.SpyInstance;

  private constructor(events: EventsRepository, database: Database) {
    const recordWithCommit = events.recordWithCommit.bind(events);
    this.spy = jest
      .spyOn(events, 'recordWithCommit')
      .mockImplementation((organisationId: string, published: NewEvent[], manager: EntityManager) => {
        const recorded = this.byOrganisation.get(organisationId) ?? [];
        for (const { name, data, occurredAt } of published) {
          recorded.push({
            name: name as DomainEventName,
            data: JSON.parse(JSON.stringify(data)),
            occurredAt: occurredAt.toISOString(),
            inTransaction: database.inTransaction(manager),
          });
        }
        this.byOrganisation.set(organisationId, recorded);
        return recordWithCommit(organisationId, published, manager);
      });
  }

  static attach(app: INestApplication): EventRecorder {
    return new EventRecorder(app.get(EventsRepository), app.get(Database));
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
    this.spy.mockRestore();
  }
}
