/**
 * The three kinds of rating, spelled as the spec spells them (SELF_ASSESMENT included). Ratings
 * validate them; an EmployeeDetail shows them on each skill's latest rating.
 */
export const RATING_TYPES = ['MANAGER_EVALUATION', 'SELF_ASSESMENT', 'LLM_RATING'] as const;
export type RatingType = (typeof RATING_TYPES)[number];
