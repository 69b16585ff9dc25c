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

  @Column({ type: 'varchar', length: 64 })
  event: string;

  /** The exact bytes sent and signed. */
  @Column({ type: 'bytea' })
  body: Buffer;

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
}
