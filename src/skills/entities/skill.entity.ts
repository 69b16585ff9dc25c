import { Column, Entity, PrimaryColumn } from 'typeorm';

export const RATING_SCALE_TYPES = ['NUMERIC', 'STAR', 'CUSTOM'] as const;
export type RatingScaleType = (typeof RATING_SCALE_TYPES)[number];

@Entity({ name: 'skills' })
export class Skill {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  description: string | null;

  @Column({ name: 'rating_scale_min', type: 'integer' })
  ratingScaleMin: number;

  @Column({ name: 'rating_scale_max', type: 'integer' })
  ratingScaleMax: number;

  @Column({ name: 'rating_scale_type', type: 'varchar', length: 16 })
  ratingScaleType: RatingScaleType;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
