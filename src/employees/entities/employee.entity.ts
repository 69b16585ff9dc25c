import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'employees' })
export class Employee {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ name: 'personnel_number', type: 'varchar', length: 64 })
  personnelNumber: string;

  @Column({ name: 'first_name', type: 'varchar', length: 200 })
  firstName: string;

  @Column({ name: 'last_name', type: 'varchar', length: 200 })
  lastName: string;

  @Column({ name: 'business_email', type: 'varchar', length: 254 })
  businessEmail: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  title: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  gender: string | null;

  @Column({ name: 'department_id', type: 'varchar', length: 64, nullable: true })
  departmentId: string | null;

  @Column({ name: 'hired_at', type: 'timestamptz', precision: 3, nullable: true })
  hiredAt: Date | null;

  @Column({ name: 'left_at', type: 'timestamptz', precision: 3, nullable: true })
  leftAt: Date | null;

  @Column({ name: 'is_hr_team_member', type: 'boolean', default: false })
  isHRTeamMember: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  /** 1 at creation, +1 by a trigger in the statement that changes the row (migration 1763766100000). */
  @Column({ type: 'integer', default: 1 })
  version: number;
}
