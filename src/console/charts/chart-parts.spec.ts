import { axisTicks, charactersIn, fitText, textWidth } from './chart-parts';

describe('axisTicks', () => {
  it('marks every whole number of a short scale', () => {
    expect(axisTicks(0, 5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(axisTicks(1, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('marks about five round numbers of a long one', () => {
    expect(axisTicks(0, 100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(axisTicks(0, 37)).toEqual([0, 10, 20, 30]);
    expect(axisTicks(-10, 10)).toEqual([-10, -5, 0, 5, 10]);
  });

  it('marks the one value of an empty range', () => {
    expect(axisTicks(3, 3)).toEqual([3]);
  });
});

describe('fitText', () => {
  it('keeps text that fits, and cuts longer text with an ellipsis to the room given', () => {
    expect(fitText('TypeScript', 10)).toBe('TypeScript');
    expect(fitText('Project management', 8)).toBe('Project…');
    expect([...fitText('Ünïcödé ✓ characters', 8)]).toHaveLength(8);
  });

  it('sizes text and room alike, so text cut to the room of its width fits it', () => {
    const text = 'Distributed systems design';
    expect(charactersIn(textWidth(text))).toBe([...text].length);
  });
});
