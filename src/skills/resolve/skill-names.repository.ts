import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';

/** Where an exact match of a name key was found: a skill's name, an alias, or a hidden alias. */
export type MatchLevel = 'name' | 'alias' | 'hiddenAlias';

/** A skill whose name or alias has a key that was looked for. */
export interface KeyMatch {
  key: string;
  level: MatchLevel;
  id: string;
  name: string;
}

/** A skill whose name or alias is like a key that matched nothing (trigram similarity). */
export interface Suggestion {
  key: string;
  id: string;
  name: string;
  matchedOn: MatchLevel;
  score: number;
}

/** Suggestions below this trigram similarity are left out (decisions.md; pg_trgm's default threshold too). */
export const MIN_SUGGESTION_SCORE = 0.3;
/** At most this many suggestions per name. */
export const MAX_SUGGESTIONS = 3;

/** The SQL of name resolution: exact matches by key, and trigram suggestions, for many names at once. */
@Injectable()
export class SkillNamesRepository {
  constructor(private readonly database: Database) {}

  /**
   * Every skill whose name, alias or hidden alias has one of `keys` (see nameKey), in one statement on the
   * key indexes whatever the number of keys.
   */
  async exactMatches(organisationId: string, keys: string[], manager?: EntityManager): Promise<KeyMatch[]> {
    if (keys.length === 0) return [];
    return this.database.manager(manager).query<KeyMatch[]>(
      `WITH wanted AS (SELECT DISTINCT key FROM unnest($2::text[]) AS key)
       SELECT w.key, 'name' AS level, s.id, s.name
         FROM wanted w JOIN skills s ON s.organisation_id = $1 AND s.name_key = w.key
       UNION ALL
       SELECT w.key, CASE a.kind WHEN 'alias' THEN 'alias' ELSE 'hiddenAlias' END, s.id, s.name
         FROM wanted w
         JOIN skill_aliases a ON a.organisation_id = $1 AND a.name_key = w.key
         JOIN skills s ON s.id = a.skill_id`,
      [organisationId, keys],
    );
  }

  /**
   * For each key, up to MAX_SUGGESTIONS skills whose name or alias keys are most like it (trigram similarity
   * ≥ MIN_SUGGESTION_SCORE), best first, one statement for every key. The `%` operator lets the trigram GIN
   * indexes on (organisation_id, name_key) find the candidates of each key; pg_trgm's similarity_threshold must
   * not be above 0.3 (its default), or fewer suggestions are found.
   */
  async suggestions(organisationId: string, keys: string[], manager?: EntityManager): Promise<Suggestion[]> {
    if (keys.length === 0) return [];
    const rows = await this.database.manager(manager).query<Suggestion[]>(
      `SELECT w.key, c.id, c.name, c.matched_on AS "matchedOn", c.score
         FROM (SELECT DISTINCT key FROM unnest($2::text[]) AS key) w
         CROSS JOIN LATERAL (
           SELECT * FROM (
             SELECT DISTINCT ON (m.id) m.id, m.name, m.matched_on, m.score FROM (
               (SELECT s.id, s.name, 'name' AS matched_on, similarity(s.name_key, w.key) AS score
                  FROM skills s
                 WHERE s.organisation_id = $1 AND s.name_key % w.key
                 ORDER BY score DESC LIMIT $3)
               UNION ALL
               (SELECT s.id, s.name, CASE a.kind WHEN 'alias' THEN 'alias' ELSE 'hiddenAlias' END,
                       similarity(a.name_key, w.key) AS score
                  FROM skill_aliases a JOIN skills s ON s.id = a.skill_id
                 WHERE a.organisation_id = $1 AND a.name_key % w.key
                 ORDER BY score DESC LIMIT $3)
             ) m
             WHERE m.score >= $4
             ORDER BY m.id, m.score DESC
           ) best
           ORDER BY best.score DESC, best.name, best.id
           LIMIT $5
         ) c`,
      // Twice the suggestions from each side: a skill found by its name and an alias counts once.
      [organisationId, keys, MAX_SUGGESTIONS * 2, MIN_SUGGESTION_SCORE, MAX_SUGGESTIONS],
    );
    return rows;
  }
}
