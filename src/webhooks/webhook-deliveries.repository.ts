import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { SqlConditions } from '../database/sql-conditions';
import { newId } from '../database/uuid';
import type { RecordedEvent } from '../events/event-recording';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../pagination/cursor';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { SendResult } from './webhook-sender';

/** A delivery taken by a dispatcher, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  event: string;
  body: Buffer;
  /** The event's, sent as the `traceparent` header; null when it has none (a command-line change). */
  traceparent: string | null;
  url: string;
  secretSealed: Buffer | null;
  previousSecretSealed: Buffer | null;
  previousSecretExpiresAt: Date | null;
}

/** A delivery with the exact body it sends (its event's, as signed). */
export interface DeliveryWithBody extends WebhookDelivery {
  body: Buffer;
}

/** Which of an endpoint's deliveries a list shows: every one, or only those that went wrong. */
export interface DeliveryFilter {
  /** Only the failed and the refused. */
  failedOnly?: boolean;
}

/** A delivery of an event, as the personal-data export lists it. */
export interface Recipient {
  webhookId: string;
  url: string;
  event: string;
  eventId: string;
  sentAt: Date | null;
  outcome: 'delivered' | 'failed' | 'refused' | null;
}

export interface SettledDelivery {
  id: string;
  result: SendResult;
  at: Date;
}

/** The webhook_deliveries columns under the WebhookDelivery entity's property names. */
const DELIVERY_COLUMNS = `id, organisation_id AS "organisationId", endpoint_id AS "endpointId", event_id AS "eventId",
  event, redelivery_of AS "redeliveryOf", created_at AS "createdAt", claimed_at AS "claimedAt", outcome,
  status_code AS "statusCode", error, duration_ms AS "durationMs", attempted_at AS "attemptedAt",
  response_excerpt AS "responseExcerpt"`;

/**
 * The outbox: the deliveries of recorded events (events/ records the events; the fan-out, webhook-fan-out.ts,
 * writes their deliveries inside the change's transaction), claimed and settled by dispatchers. Methods take the organisation first and the EntityManager last; claim and settle span every
 * organisation, as the dispatcher does.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly database: Database) {}

  /** Records the one delivery of a recorded event to `endpointId`, already claimed: its caller sends it at once. */
  async insertClaimed(
    organisationId: string,
    endpointId: string,
    event: RecordedEvent,
    manager?: EntityManager,
  ): Promise<WebhookDelivery> {
    const [delivery] = await this.database.manager(manager).query<WebhookDelivery[]>(
      `INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, created_at, claimed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       RETURNING ${DELIVERY_COLUMNS}`,
      [newId(), organisationId, endpointId, event.id, event.name, event.createdAt],
    );
    return delivery;
  }

  /** Queues the event of one delivery of the endpoint again; null when the endpoint has no such delivery. */
  async redeliver(
    organisationId: string,
    endpointId: string,
    deliveryId: string,
    at: Date,
    manager?: EntityManager,
  ): Promise<WebhookDelivery | null> {
    const [delivery] = await this.database.manager(manager).query<WebhookDelivery[]>(
      `INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, redelivery_of, created_at)
       SELECT $4, organisation_id, endpoint_id, event_id, event, id, $5
         FROM webhook_deliveries
        WHERE organisation_id = $1 AND endpoint_id = $2 AND id = $3
       RETURNING ${DELIVERY_COLUMNS}`,
      [organisationId, endpointId, deliveryId, newId(), at],
    );
    return delivery ?? null;
  }

  /**
   * Queues one redelivery of every event whose latest delivery to the endpoint recorded at or after `since`
   * failed, each with a UUID v7 of this moment (uuid_v7_sharing_time, sql/); answers how many.
   */
  async redeliverFailed(
    organisationId: string,
    endpointId: string,
    since: Date,
    at: Date,
    manager?: EntityManager,
  ): Promise<number> {
    const inserted: unknown[] = await this.database.manager(manager).query(
      `INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, redelivery_of, created_at)
       SELECT uuid_v7_sharing_time($5), $1, $2, latest.event_id, latest.event, latest.id, $4
         FROM (SELECT DISTINCT ON (event_id) id, event_id, event, outcome
                 FROM webhook_deliveries
                WHERE organisation_id = $1 AND endpoint_id = $2 AND created_at >= $3
                ORDER BY event_id, created_at DESC, id DESC) latest
        WHERE latest.outcome = 'failed'
       RETURNING id`,
      [organisationId, endpointId, since, at, newId()],
    );
    return inserted.length;
  }

  /**
   * Across every organisation: takes up to `limit` unfinished deliveries for the dispatcher `claimer` and marks
   * them claimed by it in the same statement, fairly: endpoints in turn (the one whose delivery waited longest
   * first), an equal share from each. An endpoint is taken only while no other dispatcher has one of its
   * deliveries in flight, and never beyond `heldPerEndpoint` of them in flight for `claimer`, less the deliveries
   * in `sent` (its own, whose sends have ended) (function webhook_claim, sql/webhook-claim.sql). Rows another
   * dispatcher holds are skipped; a claim older than `staleBefore` (its dispatcher died mid-send) is neither in
   * flight nor finished, and is taken again.
   */
  async claim(
    claimer: string,
    limit: number,
    heldPerEndpoint: number,
    now: Date,
    staleBefore: Date,
    sent: string[],
    manager?: EntityManager,
  ): Promise<ClaimedDelivery[]> {
    return this.database
      .manager(manager)
      .query<ClaimedDelivery[]>('SELECT * FROM webhook_claim($1, $2, $3, $4, $5, $6)', [
        limit,
        heldPerEndpoint,
        staleBefore,
        now,
        sent,
        claimer,
      ]);
  }

  /**
   * Across every organisation: what sending needs of the deliveries `claimer` still holds, read again (a rotated
   * secret, an erased body); those it no longer holds (deleted with their endpoint, or claimed by another once
   * stale) are missing.
   */
  async reread(claimer: string, ids: string[], manager?: EntityManager): Promise<ClaimedDelivery[]> {
    return this.database.manager(manager).query<ClaimedDelivery[]>(
      `SELECT delivery.id, delivery.endpoint_id AS "endpointId", delivery.event_id AS "eventId", delivery.event,
              recorded.body, recorded.traceparent, endpoint.url, endpoint.secret_sealed AS "secretSealed",
              endpoint.previous_secret_sealed AS "previousSecretSealed",
              endpoint.previous_secret_expires_at AS "previousSecretExpiresAt"
         FROM webhook_deliveries AS delivery
         JOIN webhook_endpoints AS endpoint ON endpoint.id = delivery.endpoint_id
         JOIN events AS recorded ON recorded.id = delivery.event_id
        WHERE delivery.id = ANY ($1::uuid[]) AND delivery.claimed_by = $2 AND delivery.outcome IS NULL`,
      [ids, claimer],
    );
  }

  /** Across every organisation: gives back the claims of `claimer` on deliveries it will not send after all. */
  async unclaim(claimer: string, ids: string[], manager?: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    await this.database.manager(manager).query(
      `UPDATE webhook_deliveries SET claimed_at = NULL, claimed_by = NULL
          WHERE id = ANY ($1::uuid[]) AND claimed_by = $2 AND outcome IS NULL`,
      [ids, claimer],
    );
  }

  /** Across every organisation: records the outcomes of many attempts in one statement. */
  async settleMany(settled: SettledDelivery[], manager?: EntityManager): Promise<void> {
    if (settled.length === 0) return;
    await this.database.manager(manager).query(
      `UPDATE webhook_deliveries AS delivery
          SET outcome = settled.outcome, status_code = settled.status_code, error = settled.error,
              duration_ms = settled.duration_ms, attempted_at = settled.attempted_at,
              response_excerpt = settled.response_excerpt
         FROM unnest($1::uuid[], $2::varchar[], $3::integer[], $4::varchar[], $5::integer[], $6::timestamptz[],
                     $7::bytea[])
              AS settled (id, outcome, status_code, error, duration_ms, attempted_at, response_excerpt)
        WHERE delivery.id = settled.id`,
      [
        settled.map((entry) => entry.id),
        settled.map((entry) => entry.result.outcome),
        settled.map((entry) => entry.result.statusCode),
        settled.map((entry) => entry.result.error),
        settled.map((entry) => entry.result.durationMs),
        settled.map((entry) => entry.at),
        settled.map((entry) => entry.result.responseExcerpt),
      ],
    );
  }

  /**
   * Where the events were sent, or are to be sent: each delivery of them (webhook_deliveries_event_idx) with its
   * endpoint's url, in event order then oldest first; `sentAt` and `outcome` are null until it is attempted.
   */
  async recipientsOfEvents(organisationId: string, eventIds: string[], manager?: EntityManager): Promise<Recipient[]> {
    if (eventIds.length === 0) return [];
    return this.database.manager(manager).query<Recipient[]>(
      `SELECT d.endpoint_id AS "webhookId", w.url, d.event, d.event_id AS "eventId", d.attempted_at AS "sentAt",
              d.outcome
         FROM unnest($2::uuid[]) WITH ORDINALITY AS named (event_id, position)
         JOIN webhook_deliveries d ON d.event_id = named.event_id AND d.organisation_id = $1
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
        ORDER BY named.position, d.created_at, d.id`,
      [organisationId, eventIds],
    );
  }

  /** A window of an endpoint's deliveries, newest first, on webhook_deliveries_endpoint_idx; counted in page mode. */
  async listForEndpoint(
    organisationId: string,
    endpointId: string,
    window: PageWindow,
    filter: DeliveryFilter = {},
    manager?: EntityManager,
  ): Promise<ListRows<WebhookDelivery>> {
    const where = new SqlConditions().and('d.organisation_id = ?', organisationId).and('d.endpoint_id = ?', endpointId);
    if (filter.failedOnly) where.and(`d.outcome IN ('failed', 'refused')`);
    const total = window.counted ? this.count(where, manager) : null;
    where.after(DELIVERY_ORDER.columns, DELIVERY_ORDER.descending, window.after);
    const page = where.page(window.fetch, window.offset);
    const [rows, counted] = await Promise.all([
      this.database
        .manager(manager)
        .query<WebhookDelivery[]>(
          `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE ${where.sql} ORDER BY ${orderByColumns(DELIVERY_ORDER)} ${page.sql}`,
          page.parameters,
        ),
      total,
    ]);
    return { rows, order: DELIVERY_ORDER, total: counted };
  }

  /** One delivery of the endpoint with its event's body; null when the endpoint has no such delivery (any more). */
  async findWithBody(
    organisationId: string,
    endpointId: string,
    deliveryId: string,
    manager?: EntityManager,
  ): Promise<DeliveryWithBody | null> {
    const [delivery] = await this.database.manager(manager).query<DeliveryWithBody[]>(
      `SELECT ${DELIVERY_COLUMNS}, (SELECT e.body FROM events e WHERE e.id = d.event_id) AS body
         FROM webhook_deliveries d
        WHERE d.organisation_id = $1 AND d.endpoint_id = $2 AND d.id = $3`,
      [organisationId, endpointId, deliveryId],
    );
    return delivery ?? null;
  }

  private async count(where: SqlConditions, manager?: EntityManager): Promise<number> {
    const [row] = await this.database
      .manager(manager)
      .query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM webhook_deliveries d WHERE ${where.sql}`,
        where.parameters,
      );
    return row.total;
  }
}

/** An endpoint's deliveries are listed newest first. */
const DELIVERY_ORDER: ListOrder<WebhookDelivery> = {
  columns: ['d.created_at', 'd.id'],
  descending: true,
  keyOf: (delivery) => [delivery.createdAt, delivery.id],
};
