import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An API key, kept only as the SHA-256 hash of the clear key. */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  label: string | null;

  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;
}
