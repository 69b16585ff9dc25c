import { ApiProperty, ApiSchema, PickType } from '@nestjs/swagger';
import { PersonSkillFields } from '../../employees/dto/employee.response';
import { RATING_TYPES, RatingType } from '../../skills/rating-types';

@ApiSchema({ name: 'Rating' })
export class RatingResponse extends PersonSkillFields {
  @ApiProperty()
  ratingId: string;
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
export class PersonSkillResponse extends PersonSkillFields {
  @ApiProperty({ type: PersonSkillLatestRatingResponse, nullable: true })
  latestRating: PersonSkillLatestRatingResponse | null;
}

/** A rating as the ratings repository reads it. */
export type RatingRecord = Omit<RatingResponse, 'createdAt'> & { createdAt: Date };

/** A latest rating as the ratings repository reads it. */
export type LatestRatingRecord = Omit<PersonSkillLatestRatingResponse, 'createdAt'> & { createdAt: Date };

/** A person skill with its latest rating, as the ratings repository reads it. */
export interface PersonSkillRecord {
  personSkillId: string;
  skillId: string;
  skillName: string;
  latestRating: LatestRatingRecord | null;
}

export function toRatingResponse(rating: RatingRecord): RatingResponse {
  return {
    ratingId: rating.ratingId,
    personSkillId: rating.personSkillId,
    skillId: rating.skillId,
    skillName: rating.skillName,
    score: rating.score,
    ratingType: rating.ratingType,
    comment: rating.comment,
    createdAt: rating.createdAt.toISOString(),
  };
}

export function toPersonSkillResponse({
  personSkillId,
  skillId,
  skillName,
  latestRating,
}: PersonSkillRecord): PersonSkillResponse {
  return {
    personSkillId,
    skillId,
    skillName,
    latestRating: toLatestRatingResponse(latestRating),
  };
}

export function toLatestRatingResponse(
  latestRating: LatestRatingRecord | null,
): PersonSkillLatestRatingResponse | null {
  return (
    latestRating && {
      ratingId: latestRating.ratingId,
      score: latestRating.score,
      ratingType: latestRating.ratingType,
      comment: latestRating.comment,
      createdAt: latestRating.createdAt.toISOString(),
    }
  );
}

/** The PersonSkill as a rating just added to it leaves it: that rating is its latest. */
export function toRatedPersonSkill(rating: RatingResponse): PersonSkillResponse {
  const { ratingId, score, ratingType, comment, createdAt } = rating;
  return {
    personSkillId: rating.personSkillId,
    skillId: rating.skillId,
    skillName: rating.skillName,
    latestRating: { ratingId, score, ratingType, comment, createdAt },
  };
}
