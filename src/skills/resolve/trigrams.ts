import { setImmediate } from 'node:timers/promises';
import { MATCH_LEVELS, MAX_SUGGESTIONS, MIN_SUGGESTION_SCORE, Suggestion } from './skill-names.repository';

/** A trigram as pg_trgm keeps it, three bytes, as one number: the form show_trgm prints a hashed one in. */
export type Trigram = number;

const SPACE = 0x20;

/**
 * pg_trgm's trigrams of a key made only of ASCII characters, each once, in no order: every run of letters and
 * digits is a word, padded with two spaces in front and one behind, and lowered. Undefined for any other key:
 * which characters are letters and how a trigram of several-byte characters is hashed is pg_trgm's to say (its
 * show_trgm, in the database's locale).
 */
export function asciiTrigrams(key: string): Trigram[] | undefined {
  const found = new Set<Trigram>();
  // The two characters before the next one; a word starts after two spaces.
  let first = SPACE;
  let second = SPACE;
  let inWord = false;
  for (let at = 0; at <= key.length; at++) {
    const code = at < key.length ? key.charCodeAt(at) : SPACE;
    if (code > 0x7f) return undefined;
    const lowered = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
    if (isLetterOrDigit(lowered)) {
      if (!inWord) {
        first = second = SPACE;
        inWord = true;
      }
      found.add((first << 16) | (second << 8) | lowered);
      first = second;
      second = lowered;
    } else if (inWord) {
      found.add((first << 16) | (second << 8) | SPACE);
      inWord = false;
    }
  }
  return [...found];
}

function isLetterOrDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a);
}

/** One trigram of show_trgm's answer: three printable characters, or a hashed trigram as `0x` and six hex digits. */
export function shownTrigram(shown: string): Trigram {
  if (shown.length === 3) return (shown.charCodeAt(0) << 16) | (shown.charCodeAt(1) << 8) | shown.charCodeAt(2);
  return Number.parseInt(shown.slice(2), 16);
}

/** How many keys are indexed between two turns of the event loop (~20 ms). */
const YIELD_EVERY = 2_000;

const NOT_ASCII = /[\u0080-\uffff]/;

/** pg_trgm's `similarity`: the trigrams shared over all the trigrams of the two, as a float4. */
function similarity(shared: number, ofKey: number, ofName: number): number {
  return Math.fround(shared / (ofKey + ofName - shared));
}

/** The lowest score kept, as the float4 the database compares with. */
const MIN_SCORE = Math.fround(MIN_SUGGESTION_SCORE);

/** How much longer than the candidates left a list may be for reading it to cost less than checking them. */
const READ_OVER_CHECK = 8;

/** The first pass's score, as skill_suggestions_v2's. */
const FIRST_PASS_SCORE = 0.7;

/**
 * The trigrams of one organisation's names and aliases at one version, to suggest skills for names that matched
 * nothing without a trigram probe per name: the rule of skill_suggestions_v2 (src/skills/sql), and the same
 * answer, from pg_trgm's trigrams and its similarity. Each side, names and aliases, gives its best
 * 2 × MAX_SUGGESTIONS rows (score, then name in code point order, then id, then a name before an alias before a
 * hidden alias); each skill counts once, with its best row; the best MAX_SUGGESTIONS skills are suggested. As
 * the function, a first pass at a high score, and one at the lowest only for a key left short of suggestions.
 */
export class TrigramIndex {
  /** How many of the lists read for one key hold each entry, while it is looked for; all zero between. */
  private readonly seen: Uint16Array;
  /** Marks the trigrams (by number) of the key looked for; all zero between. */
  private readonly asked: Uint8Array;

  private constructor(
    private readonly skills: ReadonlyArray<{ id: string; name: string }>,
    private readonly skillOf: Int32Array,
    private readonly levelOf: Uint8Array,
    /** Each entry's trigrams, by number, from trigramsAt[entry] to trigramsAt[entry + 1]. */
    private readonly trigramsAt: Int32Array,
    private readonly trigrams: Int32Array,
    /** Each trigram's number, in order of first sight, and the entries with that trigram. */
    private readonly numberOf: ReadonlyMap<Trigram, number>,
    private readonly entriesOf: readonly Int32Array[],
  ) {
    this.seen = new Uint16Array(skillOf.length);
    this.asked = new Uint8Array(entriesOf.length);
  }

  /**
   * The index of the skills' names and aliases. `shownTrigrams` answers pg_trgm's own trigrams of the keys that
   * are not all ASCII (show_trgm).
   */
  static async of(
    skills: ReadonlyArray<{ id: string; name: string; key: string | null }>,
    aliases: ReadonlyArray<{ skillId: string; hidden: boolean; key: string }>,
    shownTrigrams: (keys: string[]) => Promise<ReadonlyMap<string, Trigram[]>>,
  ): Promise<TrigramIndex> {
    const indexOf = new Map(skills.map(({ id }, index) => [id, index]));
    const entries: Array<{ skill: number; level: number; key: string }> = [];
    skills.forEach(({ key }, skill) => {
      if (key !== null) entries.push({ skill, level: 0, key });
    });
    for (const { skillId, hidden, key } of aliases) {
      const skill = indexOf.get(skillId);
      if (skill !== undefined) entries.push({ skill, level: hidden ? 2 : 1, key });
    }
    const others = entries.map(({ key }) => key).filter((key) => NOT_ASCII.test(key));
    const shown = others.length > 0 ? await shownTrigrams(others) : new Map<string, Trigram[]>();

    const skillOf = new Int32Array(entries.length);
    const levelOf = new Uint8Array(entries.length);
    const trigramsAt = new Int32Array(entries.length + 1);
    const trigrams: number[] = [];
    const numberOf = new Map<Trigram, number>();
    const lists: number[][] = [];
    for (const [entry, { skill, level, key }] of entries.entries()) {
      if (entry % YIELD_EVERY === YIELD_EVERY - 1) await setImmediate();
      skillOf[entry] = skill;
      levelOf[entry] = level;
      for (const trigram of asciiTrigrams(key) ?? shown.get(key) ?? []) {
        let number = numberOf.get(trigram);
        if (number === undefined) numberOf.set(trigram, (number = lists.push([]) - 1));
        trigrams.push(number);
        lists[number].push(entry);
      }
      trigramsAt[entry + 1] = trigrams.length;
    }
    const entriesOf = lists.map((list) => Int32Array.from(list));
    return new TrigramIndex(skills, skillOf, levelOf, trigramsAt, Int32Array.from(trigrams), numberOf, entriesOf);
  }

  /** The suggestions for `key`, best first; undefined when its trigrams are pg_trgm's to say (not all ASCII). */
  suggestionsFor(key: string): Suggestion[] | undefined {
    const trigrams = asciiTrigrams(key);
    if (trigrams === undefined) return undefined;
    const numbers = trigrams.flatMap((trigram) => this.numberOf.get(trigram) ?? []);
    for (const number of numbers) this.asked[number] = 1;
    // The entries of each of the key's trigrams, the rarest first.
    const lists = numbers.map((number) => this.entriesOf[number]).sort((a, b) => a.length - b.length);
    let best: Row[] = [];
    for (const threshold of [FIRST_PASS_SCORE, MIN_SCORE]) {
      best = this.bestSkills(trigrams.length, lists, threshold);
      if (best.length === MAX_SUGGESTIONS) break;
    }
    for (const number of numbers) this.asked[number] = 0;
    return best.map(({ skill: { id, name }, level, score }) => ({
      key,
      id,
      name,
      matchedOn: MATCH_LEVELS[level],
      score: float4AsRead(score),
    }));
  }

  /**
   * The best skills among the entries scoring at least `threshold` (a float8, as pg_trgm compares) with a key of
   * `size` trigrams, from `lists`, those of its trigrams that some entry has.
   */
  private bestSkills(size: number, lists: Int32Array[], threshold: number): Row[] {
    // An entry scores at most shared / size and at most the shorter's trigrams over the longer's, so one scoring
    // `threshold` shares at least that share of the key's trigrams (one less, for rounding), and is in one of all
    // but that many less one of the lists: those, the rarest, are read for candidates.
    const bound = threshold * (1 - 1e-6);
    const shares = Math.max(1, Math.ceil(bound * size) - 1);
    let unread = Math.min(shares - 1, lists.length);
    let candidates: number[] = [];
    for (const list of lists.slice(0, lists.length - unread)) {
      for (let at = 0; at < list.length; at++) {
        const entry = list[at];
        if (this.seen[entry]++ === 0) candidates.push(entry);
      }
    }
    // Then more lists, while reading one costs less than checking the candidates, each read dropping those that
    // can no longer share enough.
    for (const list of lists.slice(lists.length - unread)) {
      if (list.length > READ_OVER_CHECK * candidates.length) break;
      for (let at = 0; at < list.length; at++) if (this.seen[list[at]] > 0) this.seen[list[at]]++;
      unread--;
      candidates = candidates.filter((entry) => this.seen[entry] + unread >= shares || (this.seen[entry] = 0) > 0);
    }
    const sides: Row[][] = [[], []];
    for (const entry of candidates) {
      const seen = this.seen[entry];
      this.seen[entry] = 0;
      const ofEntry = this.trigramsAt[entry + 1] - this.trigramsAt[entry];
      if (ofEntry * bound > size || size * bound > ofEntry) continue;
      const score = similarity(unread === 0 ? seen : this.shared(entry), size, ofEntry);
      if (score < threshold) continue;
      const level = this.levelOf[entry];
      sides[level === 0 ? 0 : 1].push({ skill: this.skills[this.skillOf[entry]], level, score });
    }
    const best = new Map<string, Row>();
    for (const side of sides) {
      for (const row of side.sort(byRank).slice(0, 2 * MAX_SUGGESTIONS)) {
        const kept = best.get(row.skill.id);
        if (kept === undefined || byRank(row, kept) < 0) best.set(row.skill.id, row);
      }
    }
    return [...best.values()].sort(byRank).slice(0, MAX_SUGGESTIONS);
  }

  /** How many of the key's trigrams (those marked `asked`) the entry has. */
  private shared(entry: number): number {
    let shared = 0;
    for (let at = this.trigramsAt[entry]; at < this.trigramsAt[entry + 1]; at++)
      shared += this.asked[this.trigrams[at]];
    return shared;
  }
}

interface Row {
  skill: { id: string; name: string };
  level: number;
  score: number;
}

/** Best first: score, then name in code point order, then id, then a name before an alias before a hidden one. */
function byRank(a: Row, b: Row): number {
  return (
    b.score - a.score ||
    compareCodePoints(a.skill.name, b.skill.name) ||
    compareCodePoints(a.skill.id, b.skill.id) ||
    a.level - b.level
  );
}

/** Code point order, as PostgreSQL's COLLATE "C" on UTF-8 (UTF-16 units order a surrogate pair below U+E000). */
function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let at = 0; at < length; at++) {
    const x = a.charCodeAt(at);
    const y = b.charCodeAt(at);
    if (x !== y) return surrogateLast(x) - surrogateLast(y);
  }
  return a.length - b.length;
}

function surrogateLast(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;
}

/**
 * A float4 as the database's driver reads it: PostgreSQL writes the shortest decimal that reads back as the same
 * float4, and the driver parses that, so 0.4625 is read as 0.4625 and not as the float4's exact 0.46250000596….
 */
function float4AsRead(value: number): number {
  for (let digits = 1; digits < 9; digits++) {
    const shortest = Number(value.toPrecision(digits));
    if (Math.fround(shortest) === value) return shortest;
  }
  return Number(value.toPrecision(9));
}
