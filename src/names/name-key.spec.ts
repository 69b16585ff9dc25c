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

describe('nameKey of printable ASCII', () => {
  const fullRule = (name: string) =>
    name.normalize('NFKC').toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/\s+/gu, ' ');
  const printable = Array.from({ length: 0x7f - 0x20 }, (_v, index) => String.fromCharCode(0x20 + index));

  it('is the full rule for every printable ASCII character, alone and in runs', () => {
    for (const character of printable) {
      for (const name of [character, character.repeat(3), ` ${character}  ${character} `]) {
        expect(nameKey(name)).toBe(fullRule(name));
      }
    }
  });

  it('is the full rule for mixed names, and leaves the rest to it', () => {
    for (const name of ['  Java   Script ', 'C++ / C#', 'Node.JS (v24)', 'Java\tScript', 'Café  Au Lait', 'x\u00a0y']) {
      expect(nameKey(name)).toBe(fullRule(name));
    }
  });
});
