import { escapeLikePattern } from './like-pattern';

describe('escapeLikePattern', () => {
  it('escapes %, _ and the escape character itself', () => {
    expect(escapeLikePattern('50%_off\\now')).toBe('50\\%\\_off\\\\now');
  });

  it('leaves other characters alone', () => {
    expect(escapeLikePattern("O'Brien-Smith")).toBe("O'Brien-Smith");
  });
});
