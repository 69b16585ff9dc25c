import { setImmediate } from 'node:timers/promises';
import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { CatalogueNameRows, KeyMatch, MatchLevel, SkillNamesRepository } from './skill-names.repository';
import { shownTrigram, TrigramIndex } from './trigrams';

/** An exact match as resolve weighs it: the level it was found at and the skill. */
export type NameMatch = Omit<KeyMatch, 'key'>;

/**
 * The names held in memory at most, all organisations together (a name or an alias is one; ESCO's catalogue is
 * ~98,000, 13 MB): past it the organisations least recently resolved are let go.
 */
export const MAX_HELD_NAMES = 400_000;

/** How many aliases are put in the map between two turns of the event loop. */
const YIELD_EVERY = 10_000;

/**
 * One organisation's catalogue names at one version: each key's deciding matches, as decidingMatches finds them,
 * and the rows they came from, from which CatalogueNames builds their trigram index when a name matches nothing.
 */
export class NamesAtVersion {
  /** The trigram index of these names, once built. */
  trigrams: TrigramIndex | undefined;

  constructor(
    readonly version: string,
    private readonly matchesByKey: ReadonlyMap<string, readonly NameMatch[]>,
    readonly rows: {
      skills: ReadonlyArray<CatalogueNameRows['skills'][number]>;
      aliases: ReadonlyArray<CatalogueNameRows['aliases'][number]>;
    },
  ) {}

  /** How many keys it holds. */
  get size(): number {
    return this.matchesByKey.size;
  }

  /** The skill named by `key`, else every skill with it as an alias or hidden alias; undefined when none. */
  matchesOf(key: string): readonly NameMatch[] | undefined {
    return this.matchesByKey.get(key);
  }

  /**
   * From the organisation's skills and aliases: a name wins over any alias, so a key some skill is named by keeps
   * that match alone. The match objects (and the one-match lists) are shared per skill and level.
   */
  static async of(
    version: string,
    skills: ReadonlyArray<{ id: string; name: string; key: string | null }>,
    aliases: ReadonlyArray<{ skillId: string; hidden: boolean; key: string }>,
  ): Promise<NamesAtVersion> {
    const indexOf = new Map(skills.map(({ id }, index) => [id, index]));
    // The one-match list of each skill at each level, made when first needed.
    const lists: Record<MatchLevel, Array<readonly NameMatch[] | undefined>> = { name: [], alias: [], hiddenAlias: [] };
    const only = (level: MatchLevel, index: number): readonly NameMatch[] => {
      const { id, name } = skills[index];
      return (lists[level][index] ??= [{ level, id, name }]);
    };
    const matchesByKey = new Map<string, readonly NameMatch[]>();
    for (const [at, { skillId, hidden, key }] of aliases.entries()) {
      // ~100 ms for ESCO's catalogue: in slices, so requests are not held up behind it.
      if (at % YIELD_EVERY === YIELD_EVERY - 1) await setImmediate();
      const index = indexOf.get(skillId);
      if (index === undefined) continue;
      const list = only(hidden ? 'hiddenAlias' : 'alias', index);
      const found = matchesByKey.get(key);
      if (found === undefined) matchesByKey.set(key, list);
      else if (!found.includes(list[0])) matchesByKey.set(key, [...found, list[0]]);
    }
    // A skill whose name collided under the key rule has no key (docs/api-decisions.md): found by its aliases only.
    skills.forEach(({ key }, index) => {
      if (key !== null) matchesByKey.set(key, only('name', index));
    });
    return new NamesAtVersion(version, matchesByKey, { skills, aliases });
  }
}

/**
 * Each organisation's catalogue names, held in memory by the version the database counts for them
 * (catalogue_versions, bumped by a trigger as each change to a name or an alias commits), so resolve looks 1,000
 * names up in a map after one primary-key read instead of ~2,700 index probes. What is held is only ever used at
 * the version the database answers now, on any instance; otherwise resolve asks the database as before. Names that
 * match nothing are suggested from a trigram index of the names held (TrigramIndex), built when first needed. A version
 * seen by two requests in a row is worth holding, and is read in the background: an organisation whose names
 * change between every two requests is never read whole.
 */
@Injectable()
export class CatalogueNames implements BeforeApplicationShutdown {
  private readonly logger = new Logger(CatalogueNames.name);
  /** By organisation, least recently used first. */
  private readonly held = new Map<string, NamesAtVersion>();
  private heldNames = 0;
  /** The version each organisation's last request found that nothing held. */
  private readonly missed = new Map<string, string>();
  private readonly reading = new Map<string, Promise<void>>();
  private readonly indexing = new Map<NamesAtVersion, Promise<void>>();

  constructor(private readonly names: SkillNamesRepository) {}

  /** The organisation's names when what is held is current (one read); else undefined, and it may be read anew. */
  async current(organisationId: string): Promise<NamesAtVersion | undefined> {
    const version = await this.names.catalogueVersion(organisationId);
    const held = this.held.get(organisationId);
    if (held?.version === version) {
      this.held.delete(organisationId);
      this.held.set(organisationId, held);
      return held;
    }
    if (this.missed.get(organisationId) === version) this.read(organisationId);
    else this.missed.set(organisationId, version);
    return undefined;
  }

  /**
   * The trigram index of names held, for suggestions; the first ask builds it in the background (undefined until
   * then: the database suggests), so an organisation whose names never miss never pays for it.
   */
  trigramsOf(names: NamesAtVersion): TrigramIndex | undefined {
    if (names.trigrams === undefined && !this.indexing.has(names)) this.index(names);
    return names.trigrams;
  }

  /**
   * The trigram index of the organisation's names, read and built now if need be (~1 s at ESCO's size), for many
   * names that match nothing at once, which the database would probe one by one. `held`: what current() answered.
   * Undefined when the names cannot be held (past MAX_HELD_NAMES) or could not be read.
   */
  async trigramsNow(organisationId: string, held: NamesAtVersion | undefined): Promise<TrigramIndex | undefined> {
    let names = held;
    if (names === undefined) {
      this.read(organisationId);
      await this.reading.get(organisationId);
      names = this.held.get(organisationId);
      if (names === undefined) return undefined;
    }
    this.trigramsOf(names);
    await this.indexing.get(names);
    return names.trigrams;
  }

  /** Settles once no organisation's names are being read or indexed (tests; shutdown). */
  async settled(): Promise<void> {
    while (this.reading.size + this.indexing.size > 0) {
      await Promise.all([...this.reading.values(), ...this.indexing.values()]);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  private read(organisationId: string): void {
    if (this.reading.has(organisationId)) return;
    const reading = this.names
      .catalogueNames(organisationId)
      .then(({ version, skills, aliases }) => NamesAtVersion.of(version, skills, aliases))
      .then((names) => this.hold(organisationId, names))
      .catch((error: unknown) => this.logger.warn(`Could not read a catalogue's names: ${String(error)}`))
      .finally(() => this.reading.delete(organisationId));
    this.reading.set(organisationId, reading);
  }

  private index(names: NamesAtVersion): void {
    const { skills, aliases } = names.rows;
    const indexing = TrigramIndex.of(skills, aliases, async (keys) => {
      const rows = await this.names.trigramsOf(keys);
      return new Map(rows.map(({ key, trigrams }) => [key, trigrams.map(shownTrigram)]));
    })
      .then((trigrams) => {
        names.trigrams = trigrams;
      })
      .catch((error: unknown) => this.logger.warn(`Could not index a catalogue's trigrams: ${String(error)}`))
      .finally(() => this.indexing.delete(names));
    this.indexing.set(names, indexing);
  }

  private hold(organisationId: string, names: NamesAtVersion): void {
    this.release(organisationId);
    this.missed.delete(organisationId);
    if (names.size > MAX_HELD_NAMES) return;
    for (const [oldest] of this.held) {
      if (this.heldNames + names.size <= MAX_HELD_NAMES) break;
      this.release(oldest);
    }
    this.held.set(organisationId, names);
    this.heldNames += names.size;
  }

  private release(organisationId: string): void {
    const held = this.held.get(organisationId);
    if (held === undefined) return;
    this.held.delete(organisationId);
    this.heldNames -= held.size;
  }
}
