import { asciiTrigrams, shownTrigram, TrigramIndex } from './trigrams';

/** The skills, each with its aliases; keys as nameKey makes them for these plain names. */
function indexOf(skills: Array<{ id: string; name: string; aliases?: string[] }>): Promise<TrigramIndex> {
  return TrigramIndex.of(
    skills.map(({ id, name }) => ({ id, name, key: name.toLowerCase() })),
    skills.flatMap(({ id, aliases = [] }) => aliases.map((alias) => ({ skillId: id, hidden: false, key: alias }))),
    () => Promise.reject(new Error('every key here is ASCII')),
  );
}

describe('asciiTrigrams', () => {
  it('makes pg_trgm’s trigrams: words of letters and digits, two spaces before and one after, each once', () => {
    const expected = ['  x', ' x ', '  r', ' ra', 'ray', 'ay ', '  3', ' 3d', '3d '].map(shownTrigram);
    expect(new Set(asciiTrigrams('X-ray 3d x'))).toEqual(new Set(expected));
    expect(asciiTrigrams('+++')).toEqual([]);
    expect(asciiTrigrams('café')).toBeUndefined();
  });
});

describe('TrigramIndex', () => {
  it('takes six rows a side, each skill once with its best, and scores as the database reads a float4', async () => {
    const index = await indexOf([
      // Seven aliases at 10/13 fill the aliases' six; a skill's alias at 10/14 is left out, as in the database.
      { id: 'a', name: 'Zzz', aliases: [1, 2, 3, 4, 5, 6, 7].map((n) => `javascript${n}`) },
      { id: 'b', name: 'Other', aliases: ['javascriptxy'] },
      { id: 'c', name: 'javascrip' },
    ]);
    expect(index.suggestionsFor('javascript')).toEqual([
      { key: 'javascript', id: 'a', name: 'Zzz', matchedOn: 'alias', score: 0.7692308 },
      { key: 'javascript', id: 'c', name: 'javascrip', matchedOn: 'name', score: 0.75 },
    ]);
  });

  it('orders equal scores by name in code point order, then id, a name before an alias of the same skill', async () => {
    const index = await indexOf([
      { id: '2', name: 'ruby a' },
      { id: '1', name: 'ruby a' },
      { id: '3', name: 'RUBY D' },
      { id: '4', name: 'Ruby B', aliases: ['ruby+b'] },
    ]);
    const suggested = index.suggestionsFor('rubi')!;
    expect(suggested.map(({ id, matchedOn }) => [id, matchedOn])).toEqual([
      ['3', 'name'],
      ['4', 'name'],
      ['1', 'name'],
    ]);
    expect(index.suggestionsFor('prøject')).toBeUndefined();
    expect(index.suggestionsFor('xqzv')).toEqual([]);
  });

  it('looks lower for a key short of suggestions, through every size that can reach each score', async () => {
    const index = await indexOf([
      { id: 'a', name: 'javascrip' },
      { id: 'b', name: 'javascr' },
      { id: 'c', name: 'java' },
      // All eleven of the key's trigrams among its 47: 0.23, below the lowest score.
      { id: 'd', name: 'javascript and twenty nine more trigrams abcde' },
    ]);
    expect(index.suggestionsFor('javascript')!.map(({ id, score }) => [id, score])).toEqual([
      ['a', 0.75],
      ['b', 0.5833333],
      ['c', 0.33333334],
    ]);
  });
});
