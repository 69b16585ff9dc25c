import { newId } from '../database/uuid';
import { RateSkillDto } from './dto/rate-skill.dto';
import { NewRating } from './ratings.repository';

/** What a rating request says of the rating itself: the same for a single rating and a bulk item. */
export type RatingInput = Pick<RateSkillDto, 'score' | 'ratingType' | 'comment'>;

/** The rating `input` asks for on the skill `skillId`, with a new id, as of `createdAt`. */
export function newRating(skillId: string, input: RatingInput, createdAt: Date): NewRating {
  return {
    ratingId: newId(),
    skillId,
    score: input.score,
    ratingType: input.ratingType,
    comment: input.comment ?? null,
    createdAt,
  };
}
