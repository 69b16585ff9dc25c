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

  // The latest rating, kept by a trigger on ratings (sql/person-skills-keep-latest-rating.sql): never written here.
  @Column({ name: 'latest_rating_id', type: 'uuid', nullable: true, insert: false, update: false })
  latestRatingId: string | null;

  @Column({ name: 'latest_score', type: 'integer', nullable: true, insert: false, update: false })
  latestScore: number | null;

  @Column({ name: 'latest_rated_at', type: 'timestamptz', precision: 3, nullable: true, insert: false, update: false })
  latestRatedAt: Date | null;
}
