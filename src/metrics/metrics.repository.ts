import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

export interface UndeliveredEvents {
  count: number;
  /** Seconds since the oldest unfinished delivery was recorded; 0 when there is none. */
  oldestAgeSeconds: number;
}

/** The one query metrics make of their own: what the outbox still has to send, across every organisation. */
@Injectable()
export class MetricsRepository {
  constructor(private readonly database: Database) {}

  /** Reads only the partial index of unfinished deliveries (webhook_deliveries_unfinished_idx). */
  async undeliveredEvents(): Promise<UndeliveredEvents> {
    const [row] = await this.database.manager().query<{ count: number; oldest_age_seconds: number }[]>(
      `SELECT count(DISTINCT event_id)::int AS count,
              coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_age_seconds
         FROM webhook_deliveries
        WHERE outcome IS NULL`,
    );
    return { count: row.count, oldestAgeSeconds: row.oldest_age_seconds };
  }
}
