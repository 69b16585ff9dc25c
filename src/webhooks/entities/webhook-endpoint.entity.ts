import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'text', array: true })
  events: string[];

  /** The secret sealed with the service key; never leaves the service in clear except as an HMAC key. */
  @Column({ name: 'secret_sealed', type: 'bytea', nullable: true })
  secretSealed: Buffer | null;

  /** The secret before the last rotation, sealed the same way; null when there was none (it signs with ""). */
  @Column({ name: 'previous_secret_sealed', type: 'bytea', nullable: true })
  previousSecretSealed: Buffer | null;

  /** Until when the previous secret also signs webhook-signature; null when no overlap was asked for. */
  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', precision: 3, nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** 1 at creation, +1 in the statement of every change (a rotation of the secret). */
  @Column({ type: 'integer', default: 1 })
  version: number;
}
