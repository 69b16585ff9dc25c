import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DOMAIN_EVENT_BATCH, DOMAIN_EVENT_NAMES } from './domain-events';

/** Fails start-up while a domain event has no listener: an event nobody records would vanish without a trace. */
@Injectable()
export class DomainEventListenersCheck implements OnApplicationBootstrap {
  constructor(private readonly emitter: EventEmitter2) {}

  onApplicationBootstrap(): void {
    const unheard = [...DOMAIN_EVENT_NAMES, DOMAIN_EVENT_BATCH].filter(
      (name) => this.emitter.listeners(name).length === 0,
    );
    if (unheard.length > 0) throw new Error(`No listener for the domain events ${unheard.join(', ')}`);
  }
}
