import { Column, Entity, PrimaryColumn } from 'typeorm';

export type DeliveryOutcome = 'delivered' | 'failed' | 'refused';

/** One attempt to send one event to one endpoint; unfinished while `outcome` is null. */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDelivery {
  /** Also the X-Service-Delivery header. */
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId: string;

  /** The event whose body is sent (and the webhook-id header). */
  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  /** The event's name, kept here so the delivery log needs no join. */
  @Column({ type: 'varchar', length: 64 })
  event: string;

  /** The delivery this one repeats (redelivery, recovery); null for a first delivery. */
  @Column({ name: 'redelivery_of', type: 'uuid', nullable: true })
  redeliveryOf: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** Set when a dispatcher takes the row; a stale claim (a crash mid-send) is taken again. */
  @Column({ name: 'claimed_at', type: 'timestamptz', precision: 3, nullable: true })
  claimedAt: Date | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  outcome: DeliveryOutcome | null;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  @Column({ name: 'attempted_at', type: 'timestamptz', precision: 3, nullable: true })
  attemptedAt: Date | null;

  /** The first 1 KiB of the answer's body, as sent; null until answered, and when no answer came. */
  @Column({ name: 'response_excerpt', type: 'bytea', nullable: true })
  responseExcerpt: Buffer | null;
}
