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

/**
 * The scores a key's suggestions are looked for at, in turn, until MAX_SUGGESTIONS skills score one: the first
 * and the last are skill_suggestions_v2's two passes. The one between gives the same answer as the last when
 * it finds enough (every row it leaves out ranks below the skills it found), for less: it reads fewer lists,
 * and entries of fewer sizes.
 */
const PASS_SCORES = [0.7, 0.5, MIN_SCORE];

/**
 * The trigrams of one organisation's names and aliases at one version, to suggest skills for names that matched
 * nothing without a trigram probe per name: the rule of skill_suggestions_v2 (src/skills/sql), and the same
 * answer, from pg_trgm's trigrams and its similarity. Each side, names and aliases, gives its best
 * 2 × MAX_SUGGESTIONS rows (score, then name in code point order, then id, then a name before an alias before a
 * hidden alias); each skill counts once, with its best row; the best MAX_SUGGESTIONS skills are suggested. As
 * the function, a first pass at a high score, and one at the lowest only for a key left short of suggestions.
 * Entries (names and aliases) are numbered by their number of trigrams, so each trigram's list of entries is in
 * that order, and the entries of the sizes that can reach a score are a range of it.
 */
export class TrigramIndex {
  /** How many of the lists read for one key hold each entry, while it is looked for; all zero between. */
  private readonly seen: Uint16Array;
  /** The entries found in the lists read for one key, while it is looked for. */
  private readonly candidates: Int32Array;
  /** Marks the trigrams (by number) of the key looked for; all zero between. */
  private readonly asked: Uint8Array;

  private constructor(
    private readonly skills: ReadonlyArray<{ id: string; name: string }>,
    private readonly skillOf: Int32Array,
    private readonly levelOf: Uint8Array,
    /** Each entry's trigrams, by number, from trigramsAt[entry] to trigramsAt[entry + 1]. */
    private readonly trigramsAt: Int32Array,
    private readonly trigrams: Int32Array,
    /** The first entry with at least `size` trigrams, by size, to the largest size + 1 (then: the entry count). */
    private readonly firstOfSize: Int32Array,
    /** Each trigram's number, in order of first sight, and the entries with that trigram. */
    private readonly numberOf: ReadonlyMap<Trigram, number>,
    private readonly entriesOf: readonly Int32Array[],
  ) {
    this.seen = new Uint16Array(skillOf.length);
    this.candidates = new Int32Array(skillOf.length);
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

    const numberOf = new Map<Trigram, number>();
    const trigramsOf: number[][] = [];
    for (const [at, { key }] of entries.entries()) {
      if (at % YIELD_EVERY === YIELD_EVERY - 1) await setImmediate();
      trigramsOf.push(
        (asciiTrigrams(key) ?? shown.get(key) ?? []).map((trigram) => {
          let number = numberOf.get(trigram);
          if (number === undefined) numberOf.set(trigram, (number = numberOf.size));
          return number;
        }),
      );
    }
    // Numbered by size; a sort that keeps the order of equal sizes, so the same rows give the same index.
    const order = entries.map((_entry, at) => at).sort((a, b) => trigramsOf[a].length - trigramsOf[b].length);
    const largest = order.length > 0 ? trigramsOf[order[order.length - 1]].length : 0;
    const firstOfSize = new Int32Array(largest + 2).fill(order.length);
    const skillOf = new Int32Array(entries.length);
    const levelOf = new Uint8Array(entries.length);
    const trigramsAt = new Int32Array(entries.length + 1);
    const trigrams = new Int32Array(trigramsOf.reduce((sum, numbers) => sum + numbers.length, 0));
    const lists: number[][] = Array.from({ length: numberOf.size }, () => []);
    for (const [entry, at] of order.entries()) {
      const numbers = trigramsOf[at];
      for (let size = numbers.length; size >= 0 && firstOfSize[size] === order.length; size--) {
        firstOfSize[size] = entry;
      }
      skillOf[entry] = entries[at].skill;
      levelOf[entry] = entries[at].level;
      trigrams.set(numbers, trigramsAt[entry]);
      trigramsAt[entry + 1] = trigramsAt[entry] + numbers.length;
      for (const number of numbers) lists[number].push(entry);
    }
    const entriesOf = lists.map((list) => Int32Array.from(list));
    return new TrigramIndex(skills, skillOf, levelOf, trigramsAt, trigrams, firstOfSize, numberOf, entriesOf);
  }

  /** The suggestions for `key`, best first; undefined when its trigrams are pg_trgm's to say (not all ASCII). */
  suggestionsFor(key: string): Suggestion[] | undefined {
    const trigrams = asciiTrigrams(key);
    if (trigrams === undefined) return undefined;
    const numbers = trigrams.flatMap((trigram) => this.numberOf.get(trigram) ?? []);
    for (const number of numbers) this.asked[number] = 1;
    let best: Row[] = [];
    for (const threshold of PASS_SCORES) {
      best = this.bestSkills(trigrams.length, numbers, threshold);
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
   * `size` trigrams, from the lists of `numbers`, those of its trigrams that some entry has.
   */
  private bestSkills(size: number, numbers: number[], threshold: number): Row[] {
    // An entry scores at most the shorter's trigrams over the longer's, so only those of the sizes between
    // size × threshold and size / threshold can score it (one less, for rounding): a range of each list.
    const bound = threshold * (1 - 1e-6);
    const sizes = this.firstOfSize.length - 1;
    const first = this.firstOfSize[Math.min(Math.ceil(size * bound), sizes)];
    const end = this.firstOfSize[Math.min(Math.floor(size / bound) + 1, sizes)];
    const ranges = numbers
      .map((number) => {
        const list = this.entriesOf[number];
        return { list, from: firstAtLeast(list, first), to: firstAtLeast(list, end) };
      })
      .sort((a, b) => a.to - a.from - (b.to - b.from));
    // One scoring `threshold` also shares at least that share of the key's trigrams (one less, for rounding),
    // so it is in one of all but that many less one of the lists: those, the rarest, are read for candidates.
    const shares = Math.max(1, Math.ceil(bound * size) - 1);
    let unread = Math.min(shares - 1, ranges.length);
    const { seen, candidates } = this;
    let found = 0;
    for (const { list, from, to } of ranges.slice(0, ranges.length - unread)) {
      for (let at = from; at < to; at++) if (seen[list[at]]++ === 0) candidates[found++] = list[at];
    }
    // Then more lists, while reading one costs less than checking the candidates, each read dropping those that
    // can no longer share enough.
    for (const { list, from, to } of ranges.slice(ranges.length - unread)) {
      if (to - from > READ_OVER_CHECK * found) break;
      for (let at = from; at < to; at++) if (seen[list[at]] > 0) seen[list[at]]++;
      unread--;
      let kept = 0;
      for (let at = 0; at < found; at++) {
        if (seen[candidates[at]] + unread >= shares) candidates[kept++] = candidates[at];
        else seen[candidates[at]] = 0;
      }
      found = kept;
    }
    const sides: Row[][] = [[], []];
    for (let at = 0; at < found; at++) {
      const entry = candidates[at];
      const ofEntry = this.trigramsAt[entry + 1] - this.trigramsAt[entry];
      const score = similarity(unread === 0 ? seen[entry] : this.shared(entry), size, ofEntry);
      seen[entry] = 0;
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

/** Where the first entry numbered at least `entry` is in `list` (in order), or its length. */
function firstAtLeast(list: Int32Array, entry: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle] < entry) low = middle + 1;
    else high = middle;
  }
  return low;
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
