import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { nameKey } from '../../names/name-key';
import { KeyMatch, MatchLevel, SkillNamesRepository, Suggestion } from './skill-names.repository';

/** How a name resolved (decisions.md, "POST /skills/resolve"). */
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

/** The order in which exact matches win: a name, then an alias, then a hidden alias. */
const LEVELS: MatchLevel[] = ['name', 'alias', 'hiddenAlias'];

/**
 * The one resolver of skill names: POST /skills/resolve, bulk rating items and the positions import all turn
 * names into skills here. An exact match (by nameKey) on a skill's name wins; else on aliases, then on hidden
 * aliases; more than one skill at that level is `ambiguous`. Set-based: one statement for the exact matches of
 * every name, one more for the suggestions of those that matched nothing.
 */
@Injectable()
export class SkillResolver {
  constructor(private readonly names: SkillNamesRepository) {}

  /** Each name's resolution, in input order; with `suggest`, trigram suggestions for the names that match none. */
  async resolve(
    organisationId: string,
    names: string[],
    options: { suggest: boolean; manager?: EntityManager } = { suggest: true },
  ): Promise<Resolution[]> {
    const keys = names.map((name) => nameKey(name));
    const matches = await this.names.exactMatches(organisationId, [...new Set(keys)], options.manager);
    const byKey = groupBy(matches, (match) => match.key);
    const resolutions = names.map((name, index) => resolveExact(name, byKey.get(keys[index]) ?? []));
    if (!options.suggest) return resolutions;
    const unmatched = [...new Set(keys.filter((_key, index) => resolutions[index].match === 'none'))];
    const suggestions = groupBy(
      await this.names.suggestions(organisationId, unmatched, options.manager),
      (suggestion: Suggestion) => suggestion.key,
    );
    return resolutions.map((resolution, index) =>
      resolution.match === 'none'
        ? { ...resolution, candidates: (suggestions.get(keys[index]) ?? []).map(toCandidate) }
        : resolution,
    );
  }
}

function resolveExact(name: string, matches: KeyMatch[]): Resolution {
  for (const level of LEVELS) {
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
