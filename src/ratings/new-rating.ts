import { newId } from '../common/uuid';
import { RateSkillDto } from './dto/rate-skill.dto';
import { NewRating, RatedSkill } from './ratings.repository';

/** What a rating request says of the rating itself: the same for a single rating and a bulk item. */
export type RatingInput = Pick<RateSkillDto, 'score' | 'ratingType' | 'comment'>;

/** The rating `input` asks for on `skill`, with a new id, as of `createdAt` (its score already checked). */
export function newRating(skill: RatedSkill, input: RatingInput, createdAt: Date): NewRating {
  return {
    ratingId: newId(),
    skillId: skill.id,
    score: input.score,
    ratingType: input.ratingType,
    comment: input.comment ?? null,
    createdAt,
  };
}
