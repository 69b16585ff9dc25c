import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The link of an employee to a skill; unique per (employee, skill). It holds the ratings. */
@Entity({ name: 'person_skills' })
export class PersonSkill {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ name: 'employee_id', type: 'uuid' })
  employeeId: string;

  @Column({ name: 'skill_id', type: 'uuid' })
  skillId: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
