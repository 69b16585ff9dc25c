import { newRating } from './new-rating';

describe('newRating', () => {
  const createdAt = new Date('2026-03-01T09:00:00.000Z');

  it('rates the skill with the input, a new id and the given time; no comment is null', () => {
    const rating = newRating('skill-id', { score: 4, ratingType: 'SELF_ASSESMENT' }, createdAt);
    expect(rating).toEqual({
      ratingId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      skillId: 'skill-id',
      score: 4,
      ratingType: 'SELF_ASSESMENT',
      comment: null,
      createdAt,
    });
    expect(newRating('skill-id', { score: 4, ratingType: 'SELF_ASSESMENT' }, createdAt).ratingId).not.toBe(
      rating.ratingId,
    );
  });

  it('keeps a comment', () => {
    expect(newRating('skill-id', { score: 1, ratingType: 'LLM_RATING', comment: 'ok' }, createdAt).comment).toBe('ok');
  });
});
