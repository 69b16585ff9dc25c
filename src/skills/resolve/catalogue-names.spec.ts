import { CatalogueNames, MAX_HELD_NAMES, NamesAtVersion } from './catalogue-names';
import { CatalogueNameRows, SkillNamesRepository } from './skill-names.repository';

describe('NamesAtVersion', () => {
  let names: NamesAtVersion;
  beforeAll(async () => {
    names = await NamesAtVersion.of(
      '7',
      [
        { id: 'a', name: 'JavaScript', key: 'javascript' },
        { id: 'b', name: 'Java', key: 'java' },
        { id: 'c', name: 'Kotlin', key: 'kotlin' },
      ],
      [
        { skillId: 'a', hidden: false, key: 'js' },
        { skillId: 'a', hidden: true, key: 'jawascript' },
        { skillId: 'b', hidden: false, key: 'jvm' },
        { skillId: 'c', hidden: false, key: 'jvm' },
        { skillId: 'c', hidden: true, key: 'jvm' },
        { skillId: 'c', hidden: false, key: 'java' },
        { skillId: 'gone', hidden: false, key: 'gone' },
      ],
    );
  });

  it('answers a name alone, even where it is also an alias', () => {
    expect(names.matchesOf('java')).toEqual([{ level: 'name', id: 'b', name: 'Java' }]);
  });

  it('answers every skill with an alias, at each level it has it', () => {
    expect(names.matchesOf('jvm')).toEqual([
      { level: 'alias', id: 'b', name: 'Java' },
      { level: 'alias', id: 'c', name: 'Kotlin' },
      { level: 'hiddenAlias', id: 'c', name: 'Kotlin' },
    ]);
    expect(names.matchesOf('jawascript')).toEqual([{ level: 'hiddenAlias', id: 'a', name: 'JavaScript' }]);
  });

  it('answers nothing for a key no skill has, nor for an alias of a skill it does not hold', () => {
    expect(names.matchesOf('cobol')).toBeUndefined();
    expect(names.matchesOf('gone')).toBeUndefined();
    expect(names.size).toBe(6);
  });
});

describe('CatalogueNames', () => {
  const rows = (version: string, count: number): CatalogueNameRows => ({
    version,
    skills: Array.from({ length: count }, (_v, index) => ({ id: `${index}`, name: `S${index}`, key: `s${index}` })),
    aliases: [],
  });

  const catalogueOf = (versions: Record<string, string>, sizes: Record<string, number>) => {
    const repository = {
      catalogueVersion: jest.fn(async (organisation: string) => versions[organisation]),
      catalogueNames: jest.fn(async (organisation: string) => rows(versions[organisation], sizes[organisation])),
    };
    return { repository, catalogue: new CatalogueNames(repository as unknown as SkillNamesRepository) };
  };

  it('reads the names once two requests in a row found the same version, and holds them while it stays', async () => {
    const versions = { org: '1' };
    const { repository, catalogue } = catalogueOf(versions, { org: 3 });
    expect(await catalogue.current('org')).toBeUndefined();
    expect(repository.catalogueNames).not.toHaveBeenCalled();
    expect(await catalogue.current('org')).toBeUndefined();
    await catalogue.settled();
    expect((await catalogue.current('org'))?.matchesOf('s1')).toEqual([{ level: 'name', id: '1', name: 'S1' }]);
    versions.org = '2';
    expect(await catalogue.current('org')).toBeUndefined();
    expect(repository.catalogueNames).toHaveBeenCalledTimes(1);
  });

  it('lets the least recently used organisations go past MAX_HELD_NAMES, and never holds one larger', async () => {
    const half = MAX_HELD_NAMES / 2;
    const versions = { a: '1', b: '1', c: '1', huge: '1' };
    const { catalogue } = catalogueOf(versions, { a: half, b: half, c: half, huge: MAX_HELD_NAMES + 1 });
    const hold = async (organisation: string) => {
      await catalogue.current(organisation);
      await catalogue.current(organisation);
      await catalogue.settled();
    };
    await hold('a');
    await hold('b');
    expect(await catalogue.current('a')).toBeDefined();
    await hold('c');
    expect(await catalogue.current('b')).toBeUndefined();
    expect(await catalogue.current('a')).toBeDefined();
    expect(await catalogue.current('c')).toBeDefined();
    await hold('huge');
    expect(await catalogue.current('huge')).toBeUndefined();
    expect(await catalogue.current('a')).toBeDefined();
  });
});
