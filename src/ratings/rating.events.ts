import type { RatingResponse } from './dto/rating.response';

/** The event of ratings: the Rating just added, and whose it is. */
declare module '../events/domain-events' {
  interface DomainEventMap {
    'skill.rated': { employeeId: string; rating: RatingResponse };
  }
}
