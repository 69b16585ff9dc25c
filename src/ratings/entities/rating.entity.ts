import { Column, Entity, PrimaryColumn } from 'typeorm';
import { RatingType } from '../../skills/rating-types';

/**
 * One rating of an employee on a skill; appended, never updated. employee_id and skill_id repeat the
 * person skill's so the ratings list filters and orders on one index.
 */
@Entity({ name: 'ratings' })
export class Rating {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ name: 'person_skill_id', type: 'uuid' })
  personSkillId: string;

  @Column({ name: 'employee_id', type: 'uuid' })
  employeeId: string;

  @Column({ name: 'skill_id', type: 'uuid' })
  skillId: string;

  @Column({ type: 'integer' })
  score: number;

  @Column({ name: 'rating_type', type: 'varchar', length: 32 })
  ratingType: RatingType;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  comment: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
