import type { PositionResponse } from './dto/position.response';

/** The event of positions: a position the import created or changed, as the API returns it. */
declare module '../events/domain-events' {
  interface DomainEventMap {
    'position.updated': PositionResponse;
  }
}
