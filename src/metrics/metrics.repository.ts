import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

export interface OutboxState {
  /** Events with at least one delivery not yet sent. */
  undeliveredEvents: number;
  /** Seconds since the oldest unfinished delivery was recorded; 0 when there is none. */
  oldestAgeSeconds: number;
  /** Endpoints with `perEndpoint` deliveries in flight (claimed, unsettled, the claim not stale). */
  endpointsAtInFlightLimit: number;
}

/** The one query metrics make of their own: what the outbox still has to send, across every organisation. */
@Injectable()
export class MetricsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Reads the unfinished deliveries (the partial index webhook_deliveries_queue_idx) and, for the endpoints at
   * their limit, only those in flight (webhook_deliveries_sending_idx): never one endpoint's count as a label.
   */
  async outbox(perEndpoint: number, staleBefore: Date): Promise<OutboxState> {
    const [row] = await this.database.manager().query<OutboxState[]>(
      `SELECT count(DISTINCT event_id)::int AS "undeliveredEvents",
              coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS "oldestAgeSeconds",
              (SELECT count(*)::int
                 FROM (SELECT endpoint_id FROM webhook_deliveries
                        WHERE outcome IS NULL AND claimed_at >= $2
                        GROUP BY endpoint_id
                       HAVING count(*) >= $1) full_endpoint) AS "endpointsAtInFlightLimit"
         FROM webhook_deliveries
        WHERE outcome IS NULL`,
      [perEndpoint, staleBefore],
    );
    return row;
  }
}
