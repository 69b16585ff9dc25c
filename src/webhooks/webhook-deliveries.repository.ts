import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PaginationQuery } from '../common/pagination';
import { newId } from '../common/uuid';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { SendResult } from './webhook-sender';

/** A delivery taken by a dispatcher, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  event: string;
  body: Buffer;
  url: string;
  secretSealed: Buffer | null;
}

export interface SettledDelivery {
  id: string;
  result: SendResult;
  at: Date;
}

interface ClaimedRow {
  id: string;
  endpoint_id: string;
  event: string;
  body: Buffer;
  url: string;
  secret_sealed: Buffer | null;
}

/** The outbox table: written inside the change's transaction, claimed and settled by dispatchers. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records one pending delivery per endpoint of the organisation subscribed to `event`, with `manager`,
   * the transaction of the change, in one statement. The endpoint read holds a key-share lock, so an endpoint
   * deleted concurrently cannot break the change's commit. Each row's id is a UUID v7 of this moment:
   * newId()'s first 8 bytes (time, version) with a random tail from gen_random_uuid() (whose variant bits match).
   */
  async enqueue(manager: EntityManager, organisationId: string, event: string, body: Buffer, at: Date): Promise<number> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event, body, created_at)
       SELECT encode(overlay(uuid_send(gen_random_uuid()) PLACING substring(uuid_send($5::uuid) FROM 1 FOR 8) FROM 1 FOR 8), 'hex')::uuid,
              $1, endpoint.id, $2, $3, $4
         FROM (SELECT id FROM webhook_endpoints
                WHERE organisation_id = $1 AND $2 = ANY (events)
                ORDER BY created_at, id
                  FOR KEY SHARE) endpoint
       RETURNING id`,
      [organisationId, event, body, at, newId()],
    );
    return inserted.length;
  }

  /** A delivery that is sent at once by its caller (the test endpoint): created already claimed. */
  async createClaimed(organisationId: string, endpointId: string, event: string, body: Buffer): Promise<WebhookDelivery> {
    const now = new Date();
    const delivery = this.dataSource.manager.create(WebhookDelivery, {
      id: newId(),
      organisationId,
      endpointId,
      event,
      body,
      createdAt: now,
      claimedAt: now,
    });
    return this.dataSource.manager.save(delivery);
  }

  /**
   * Takes up to `limit` unfinished deliveries, oldest first, and marks them claimed in the same statement.
   * Rows another dispatcher holds are skipped; a claim older than `staleBefore` (its dispatcher died mid-send)
   * is taken again.
   */
  async claim(limit: number, now: Date, staleBefore: Date): Promise<ClaimedDelivery[]> {
    // For an UPDATE, TypeORM answers [rows, affected count].
    const [rows]: [ClaimedRow[], number] = await this.dataSource.query(
      `WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE outcome IS NULL AND (claimed_at IS NULL OR claimed_at < $2)
          ORDER BY created_at, id
          LIMIT $1
          FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries AS delivery
          SET claimed_at = $3
         FROM due, webhook_endpoints AS endpoint
        WHERE delivery.id = due.id AND endpoint.id = delivery.endpoint_id
       RETURNING delivery.id, delivery.endpoint_id, delivery.event, delivery.body, endpoint.url, endpoint.secret_sealed`,
      [limit, staleBefore, now],
    );
    return rows.map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id,
      event: row.event,
      body: row.body,
      url: row.url,
      secretSealed: row.secret_sealed,
    }));
  }

  async settle(id: string, result: SendResult, at: Date): Promise<void> {
    await this.settleMany([{ id, result, at }]);
  }

  /** Records the outcomes of many attempts in one statement. */
  async settleMany(settled: SettledDelivery[]): Promise<void> {
    if (settled.length === 0) return;
    await this.dataSource.query(
      `UPDATE webhook_deliveries AS delivery
          SET outcome = settled.outcome, status_code = settled.status_code, error = settled.error,
              duration_ms = settled.duration_ms, attempted_at = settled.attempted_at
         FROM unnest($1::uuid[], $2::varchar[], $3::integer[], $4::varchar[], $5::integer[], $6::timestamptz[])
              AS settled (id, outcome, status_code, error, duration_ms, attempted_at)
        WHERE delivery.id = settled.id`,
      [
        settled.map((entry) => entry.id),
        settled.map((entry) => entry.result.outcome),
        settled.map((entry) => entry.result.statusCode),
        settled.map((entry) => entry.result.error),
        settled.map((entry) => entry.result.durationMs),
        settled.map((entry) => entry.at),
      ],
    );
  }

  /** An endpoint's deliveries, newest first: one query for the page and one for the count. */
  async listForEndpoint(
    organisationId: string,
    endpointId: string,
    page: PaginationQuery,
  ): Promise<[WebhookDelivery[], number]> {
    return this.dataSource.getRepository(WebhookDelivery).findAndCount({
      // Everything but the body, which the log does not show.
      select: ['id', 'event', 'outcome', 'statusCode', 'error', 'durationMs', 'createdAt', 'attemptedAt'],
      where: { organisationId, endpointId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
  }
}
