import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { nameKey } from '../../names/name-key';
import { CatalogueNames, NameMatch, NamesAtVersion } from './catalogue-names';
import {
  KeyMatch,
  LevelMatch,
  MATCH_LEVELS,
  MatchLevel,
  ScaledSkill,
  SkillNamesRepository,
  Suggestion,
} from './skill-names.repository';

/** How a name resolved (docs/api-decisions.md, "POST /skills/resolve"). */
export type ResolvedMatch = MatchLevel | 'ambiguous' | 'none';

export interface ResolvedCandidate {
  id: string;
  name: string;
  matchedOn: MatchLevel;
  score: number;
}

export interface Resolution {
  name: string;
  match: ResolvedMatch;
  skill: { id: string; name: string } | null;
  candidates: ResolvedCandidate[];
}

/** Past this many names that match nothing, the names are read and indexed now rather than probed one by one. */
const MANY_UNMATCHED = 50;

/**
 * The one resolver of skill names: POST /skills/resolve, bulk rating items and the positions import all turn
 * names into skills here. An exact match (by nameKey) on a skill's name wins; else on aliases, then on hidden
 * aliases; more than one skill at that level is `ambiguous`. Set-based: one statement for the exact matches of
 * every name, one more for the suggestions of those that matched nothing; or, outside a transaction, from the
 * organisation's names held in memory when they are current (CatalogueNames).
 */
@Injectable()
export class SkillResolver {
  constructor(
    private readonly names: SkillNamesRepository,
    private readonly catalogue: CatalogueNames,
  ) {}

  /** Each name's resolution, in input order; with `suggest`, trigram suggestions for the names that match none. */
  async resolve(
    organisationId: string,
    names: string[],
    options: { suggest: boolean; manager?: EntityManager } = { suggest: true },
  ): Promise<Resolution[]> {
    // Each name's key as its position among the distinct keys.
    const positions = new Map<string, number>();
    const keyAt = names.map((name) => {
      const key = nameKey(name);
      let at = positions.get(key);
      if (at === undefined) positions.set(key, (at = positions.size));
      return at;
    });
    const keys = [...positions.keys()];
    // A transaction may hold changes of its own, so in one the database answers.
    const held = options.manager === undefined ? await this.catalogue.current(organisationId) : undefined;
    const matchesAt = await this.decidingMatches(organisationId, keys, held, options.manager);
    const resolutions = names.map((name, index) => resolveExact(name, matchesAt[keyAt[index]]));
    if (!options.suggest) return resolutions;
    const unmatched = keys.filter((_key, at) => matchesAt[at] === undefined);
    if (unmatched.length === 0) return resolutions;
    const suggestions = groupBy(
      await this.suggestions(organisationId, unmatched, held, options.manager),
      (suggestion: Suggestion) => suggestion.key,
    );
    resolutions.forEach((resolution, index) => {
      if (resolution.match === 'none') {
        resolution.candidates = (suggestions.get(keys[keyAt[index]]) ?? []).map(toCandidate);
      }
    });
    return resolutions;
  }

  /** Each key's deciding matches, by position: from the names held in memory when current, else the database. */
  private async decidingMatches(
    organisationId: string,
    keys: string[],
    held: NamesAtVersion | undefined,
    manager: EntityManager | undefined,
  ): Promise<Array<readonly NameMatch[] | undefined>> {
    if (held !== undefined) return keys.map((key) => held.matchesOf(key));
    const matchesAt: LevelMatch[][] = [];
    for (const match of await this.names.decidingMatches(organisationId, keys, manager)) {
      (matchesAt[match.at] ??= []).push(match);
    }
    return matchesAt;
  }

  /**
   * The suggestions for keys that matched nothing: from the trigrams of the names held when they are indexed (for
   * many keys, once they are), else (and for a key whose trigrams only pg_trgm can tell) from the database. Both
   * follow skill_suggestions_v2.
   */
  private async suggestions(
    organisationId: string,
    keys: string[],
    held: NamesAtVersion | undefined,
    manager: EntityManager | undefined,
  ): Promise<Suggestion[]> {
    let trigrams = held && this.catalogue.trigramsOf(held);
    // Reading and indexing the names (~1 s at ESCO's size) beats the database's probes (~16 ms a name there).
    if (trigrams === undefined && manager === undefined && keys.length > MANY_UNMATCHED) {
      trigrams = await this.catalogue.trigramsNow(organisationId, held);
    }
    if (trigrams === undefined) return this.names.suggestions(organisationId, keys, manager);
    const asked: string[] = [];
    const found = keys.flatMap((key) => trigrams.suggestionsFor(key) ?? (asked.push(key), []));
    return asked.length === 0 ? found : [...found, ...(await this.names.suggestions(organisationId, asked))];
  }

  /**
   * resolve without suggestions, and the skills the names resolve to plus those with `ids`, with their rating
   * scales, key-share locked until the transaction ends: one statement for all (bulk ratings).
   */
  async resolveAndLock(
    organisationId: string,
    names: string[],
    ids: string[],
    manager: EntityManager,
  ): Promise<LockedResolution> {
    const keys = names.map((name) => nameKey(name));
    const rows = await this.names.lockMatchesAndIds(organisationId, [...new Set(keys)], ids, manager);
    const skillById = new Map(
      rows.map(({ id, name, ratingScaleMin, ratingScaleMax }) => [id, { id, name, ratingScaleMin, ratingScaleMax }]),
    );
    const matches = rows.filter((row): row is typeof row & KeyMatch => row.key !== null);
    const byKey = groupBy(matches, (match) => match.key);
    return { resolutions: names.map((name, index) => resolveExact(name, byKey.get(keys[index]) ?? [])), skillById };
  }
}

/** What resolveAndLock answers: each name's resolution, and every skill found, by id. */
export interface LockedResolution {
  resolutions: Resolution[];
  skillById: Map<string, ScaledSkill>;
}

function resolveExact(name: string, matches: readonly NameMatch[] = []): Resolution {
  if (matches.length === 1) {
    const [{ level, id, name: skillName }] = matches;
    return { name, match: level, skill: { id, name: skillName }, candidates: [] };
  }
  for (const level of MATCH_LEVELS) {
    const skills = new Map(matches.filter((match) => match.level === level).map((match) => [match.id, match]));
    if (skills.size === 1) {
      const [{ id, name: skillName }] = skills.values();
      return { name, match: level, skill: { id, name: skillName }, candidates: [] };
    }
    if (skills.size > 1) {
      const candidates = [...skills.values()]
        .map((match) => ({ id: match.id, name: match.name, matchedOn: level, score: 1 }))
        .sort((a, b) => (a.name === b.name ? compare(a.id, b.id) : compare(a.name, b.name)));
      return { name, match: 'ambiguous', skill: null, candidates };
    }
  }
  return { name, match: 'none', skill: null, candidates: [] };
}

function toCandidate({ id, name, matchedOn, score }: Suggestion): ResolvedCandidate {
  return { id, name, matchedOn, score: Math.round(score * 1000) / 1000 };
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
