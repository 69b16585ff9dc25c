import { ApiProperty, ApiSchema, PickType } from '@nestjs/swagger';
import { RATING_TYPES, RatingType } from '../entities/rating.entity';

@ApiSchema({ name: 'Rating' })
export class RatingResponse {
  @ApiProperty()
  ratingId: string;
  @ApiProperty()
  personSkillId: string;
  @ApiProperty()
  skillId: string;
  @ApiProperty()
  skillName: string;
  @ApiProperty({ type: 'integer' })
  score: number;
  @ApiProperty({ enum: RATING_TYPES })
  ratingType: RatingType;
  @ApiProperty({ type: String, nullable: true })
  comment: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

@ApiSchema({ name: 'PersonSkillLatestRating' })
export class PersonSkillLatestRatingResponse extends PickType(RatingResponse, [
  'ratingId',
  'score',
  'ratingType',
  'comment',
  'createdAt',
] as const) {}

@ApiSchema({ name: 'PersonSkill' })
export class PersonSkillResponse {
  @ApiProperty()
  personSkillId: string;
  @ApiProperty()
  skillId: string;
  @ApiProperty()
  skillName: string;
  @ApiProperty({ type: PersonSkillLatestRatingResponse, nullable: true })
  latestRating: PersonSkillLatestRatingResponse | null;
}

export function toLatestRating(rating: RatingResponse): PersonSkillLatestRatingResponse {
  const { ratingId, score, ratingType, comment, createdAt } = rating;
  return { ratingId, score, ratingType, comment, createdAt };
}

/** The PersonSkill as a rating just added to it leaves it: that rating is its latest. */
export function toRatedPersonSkill(rating: RatingResponse): PersonSkillResponse {
  return {
    personSkillId: rating.personSkillId,
    skillId: rating.skillId,
    skillName: rating.skillName,
    latestRating: toLatestRating(rating),
  };
}
