import type { EntityManager } from 'typeorm';
import type { EventFanOut } from '../events/event-recording';

/**
 * The fan-out's SQL: one pending delivery per recorded event and endpoint of the organisation subscribed to it,
 * in event order, written by webhook_fan_out (sql/webhook-fan-out.sql), whose plan PostgreSQL keeps.
 */
export const DELIVERIES_OF_RECORDED_EVENTS =
  'webhook_fan_out(recorded.organisation_id, recorded.event_ids, recorded.event_names, recorded.recorded_at)';

/**
 * What webhooks/ gives events/ at start-up (EventsRepository.setFanOut): the deliveries of every recorded event,
 * written in the statement that records it, inside the change's transaction; once a change has committed with
 * deliveries, `announce` is called with its transaction (WebhookCommitWatcher.watch).
 */
export function webhookFanOut(announce: (manager: EntityManager) => void): EventFanOut {
  return {
    sql: DELIVERIES_OF_RECORDED_EVENTS,
    committed: (fannedOut, manager) => {
      if (fannedOut > 0) announce(manager);
    },
  };
}
