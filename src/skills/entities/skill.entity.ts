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

  /**
   * The name as names are compared (src/names/name-key.ts), unique in the organisation; null only for a skill
   * whose name an older skill's key took when keys were introduced, until it is renamed.
   */
  @Column({ name: 'name_key', type: 'text', nullable: true })
  nameKey: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  description: string | null;

  /** The taxonomy the skill comes from (`esco`), with its id there; the pair is unique in the organisation. */
  @Column({ type: 'varchar', length: 50, nullable: true })
  source: string | null;

  @Column({ name: 'external_id', type: 'varchar', length: 500, nullable: true })
  externalId: string | null;

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

  /** 1 at creation; the skills_version_bump trigger adds 1 in every UPDATE that changes the row. */
  @Column({ type: 'integer' })
  version: number;
}
