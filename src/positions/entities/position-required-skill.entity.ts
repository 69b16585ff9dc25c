import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A skill a position requires, with the minimum rating a holder needs; once per (position, skill). */
@Entity({ name: 'position_required_skills' })
export class PositionRequiredSkill {
  @PrimaryColumn({ name: 'position_id', type: 'uuid' })
  positionId: string;

  @PrimaryColumn({ name: 'skill_id', type: 'uuid' })
  skillId: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ name: 'minimum_rating', type: 'integer' })
  minimumRating: number;
}
