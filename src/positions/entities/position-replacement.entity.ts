import { Column, Entity, PrimaryColumn } from 'typeorm';

export const REPLACEMENT_STATUSES = ['PROPOSED', 'APPROVED', 'REJECTED'] as const;
export type ReplacementStatus = (typeof REPLACEMENT_STATUSES)[number];

/** An employee considered for a position; once per (position, candidate), so its id survives re-imports. */
@Entity({ name: 'position_replacements' })
export class PositionReplacement {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ name: 'position_id', type: 'uuid' })
  positionId: string;

  @Column({ name: 'candidate_employee_id', type: 'uuid' })
  candidateEmployeeId: string;

  @Column({ name: 'ready_at', type: 'timestamptz', precision: 3 })
  readyAt: Date;

  @Column({ type: 'varchar', length: 16 })
  status: ReplacementStatus;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
