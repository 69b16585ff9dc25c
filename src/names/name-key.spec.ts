import { nameKey } from './name-key';

describe('nameKey', () => {
  it.each([
    ['Café', 'cafe'],
    ['CAFÉ', 'café'],
    ['ﬁle', 'FILE'],
    ['Java  \t Script', 'java script'],
    ['Ｊａｖａ', 'java'],
    ['Ångström', 'angstrom'],
  ])('makes %p and %p the same key', (left, right) => {
    expect(nameKey(left)).toBe(nameKey(right));
  });

  it.each([
    ['Java Script', 'javascript'],
    ['  Java Script', 'java script'],
    ['C#', 'C'],
  ])('keeps %p and %p apart', (left, right) => {
    expect(nameKey(left)).not.toBe(nameKey(right));
  });
});
