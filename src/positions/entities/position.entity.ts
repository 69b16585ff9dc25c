import { Column, Entity, PrimaryColumn } from 'typeorm';

export const POSITION_STATUSES = ['OPEN', 'IN_PROGRESS', 'FILLED', 'CLOSED'] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];

/** A position of an organisation; created and changed only by the import command, keyed by `ref`. */
@Entity({ name: 'positions' })
export class Position {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  /** The operator's key for the position, unique per organisation; never returned by the API. */
  @Column({ type: 'varchar', length: 200 })
  ref: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  department: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: PositionStatus;

  @Column({ name: 'must_be_filled_by', type: 'timestamptz', precision: 3, nullable: true })
  mustBeFilledBy: Date | null;

  @Column({ name: 'replaces_employee_id', type: 'uuid', nullable: true })
  replacesEmployeeId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
