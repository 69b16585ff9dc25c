import { EventEmitter2 } from '@nestjs/event-emitter';
import { DomainEventListenersCheck } from './domain-event-listeners.check';
import { DOMAIN_EVENT_BATCH, DOMAIN_EVENT_NAMES } from './domain-events';

describe('DomainEventListenersCheck', () => {
  it('fails start-up while an event name has no listener, naming it, and passes once each has one', () => {
    const emitter = new EventEmitter2();
    const heard = [...DOMAIN_EVENT_NAMES, DOMAIN_EVENT_BATCH].filter((each) => each !== 'position.updated');
    for (const name of heard) emitter.on(name, jest.fn());
    const check = new DomainEventListenersCheck(emitter);
    expect(() => check.onApplicationBootstrap()).toThrow('No listener for the domain events position.updated');
    emitter.on('position.updated', jest.fn());
    expect(() => check.onApplicationBootstrap()).not.toThrow();
  });
});
