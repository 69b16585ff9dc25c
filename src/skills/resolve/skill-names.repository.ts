import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';

/** Where an exact match of a name key was found: a skill's name, an alias, or a hidden alias. */
export type MatchLevel = 'name' | 'alias' | 'hiddenAlias';

/** The levels in the order in which they win, exact matches and equal suggestion scores alike. */
export const MATCH_LEVELS: readonly MatchLevel[] = ['name', 'alias', 'hiddenAlias'];

/** A skill whose name or alias has a key that was looked for. */
export interface KeyMatch {
  key: string;
  level: MatchLevel;
  id: string;
  name: string;
}

/** A skill matched exactly by the key at `at` (0-based) in the keys looked for. */
export interface LevelMatch {
  at: number;
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

/** A skill with its rating scale, as rating it needs. */
export interface ScaledSkill {
  id: string;
  name: string;
  ratingScaleMin: number;
  ratingScaleMax: number;
}

/** An organisation's catalogue names as catalogueNames reads them. */
export interface CatalogueNameRows {
  version: string;
  skills: Array<{ id: string; name: string; key: string | null }>;
  aliases: Array<{ skillId: string; hidden: boolean; key: string }>;
}

/** Suggestions below this trigram similarity are left out (docs/api-decisions.md; pg_trgm's default threshold too). */
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
   * The exact matches that decide each of `keys` (distinct): the skill named by it, else every skill with it as
   * an alias or hidden alias. A name wins over any alias, so the aliases of a key a name has are not looked for,
   * and each match says its key by position, not by text. One statement on the key indexes. The keys travel as
   * one text, a line each (a key has no line break: nameKey makes every run of white space one space), which
   * spares encoding and parsing 1,000 array elements. A name is probed key by key (LATERAL … LIMIT 1: a key names
   * one skill at most): as a join, an organisation holding most of the table got a hash of all its skills, 4 × the
   * probes' time on ESCO's 13,939.
   */
  async decidingMatches(organisationId: string, keys: string[], manager?: EntityManager): Promise<LevelMatch[]> {
    if (keys.length === 0) return [];
    return this.database.manager(manager).query<LevelMatch[]>(
      `WITH named AS MATERIALIZED (
         SELECT w.at, s.id, s.name
           FROM unnest(string_to_array($2, E'\n')) WITH ORDINALITY AS w (key, at)
           CROSS JOIN LATERAL (
             SELECT s.id, s.name FROM skills s WHERE s.organisation_id = $1 AND s.name_key = w.key LIMIT 1
           ) s
       )
       SELECT at::int - 1 AS at, 'name' AS level, id, name FROM named
       UNION ALL
       SELECT w.at::int - 1, CASE a.kind WHEN 'alias' THEN 'alias' ELSE 'hiddenAlias' END, s.id, s.name
         FROM unnest(string_to_array($2, E'\n')) WITH ORDINALITY AS w (key, at)
         JOIN skill_aliases a ON a.organisation_id = $1 AND a.name_key = w.key
         JOIN skills s ON s.id = a.skill_id
        WHERE w.at NOT IN (SELECT at FROM named)`,
      [organisationId, keys.join('\n')],
    );
  }

  /** The version of the organisation's catalogue names (catalogue_versions; "0" before their first change). */
  async catalogueVersion(organisationId: string): Promise<string> {
    const [row] = await this.database
      .manager()
      .query<Array<{ version: string }>>(
        `SELECT version::text AS version FROM catalogue_versions WHERE organisation_id = $1`,
        [organisationId],
      );
    return row?.version ?? '0';
  }

  /** Every name and alias key of the organisation's skills, and their version, read in one statement (one snapshot). */
  async catalogueNames(organisationId: string): Promise<CatalogueNameRows> {
    const rows = await this.database.manager().query<Array<{ kind: string; key: string; id: string; name: string }>>(
      `SELECT 'version' AS kind, coalesce(max(version), 0)::text AS key, NULL::uuid AS id, NULL AS name
         FROM catalogue_versions WHERE organisation_id = $1
       UNION ALL
       SELECT 'name', name_key, id, name FROM skills WHERE organisation_id = $1
       UNION ALL
       SELECT kind, name_key, skill_id, NULL FROM skill_aliases WHERE organisation_id = $1`,
      [organisationId],
    );
    const names: CatalogueNameRows = { version: '0', skills: [], aliases: [] };
    for (const { kind, key, id, name } of rows) {
      if (kind === 'version') names.version = key;
      else if (kind === 'name') names.skills.push({ id, name, key });
      else names.aliases.push({ skillId: id, hidden: kind === 'hidden', key });
    }
    return names;
  }

  /** pg_trgm's own trigrams of each key (show_trgm), for the keys whose trigrams depend on the database's locale. */
  async trigramsOf(keys: string[]): Promise<Array<{ key: string; trigrams: string[] }>> {
    return this.database
      .manager()
      .query(`SELECT key, show_trgm(key) AS trigrams FROM unnest($1::text[]) AS key`, [keys]);
  }

  /**
   * exactMatches and the skills with these ids in one statement, each skill with its rating scale and key-share
   * locked until the transaction ends (none can be deleted before what refers to it commits). A row found by id
   * has a null key and level.
   */
  async lockMatchesAndIds(
    organisationId: string,
    keys: string[],
    ids: string[],
    manager: EntityManager,
  ): Promise<Array<ScaledSkill & { key: string | null; level: MatchLevel | null }>> {
    if (keys.length === 0 && ids.length === 0) return [];
    return this.database.manager(manager).query(
      `SELECT m.key, m.level, s.id, s.name, s.rating_scale_min AS "ratingScaleMin",
              s.rating_scale_max AS "ratingScaleMax"
         FROM skills s
         JOIN (
           SELECT w.key, 'name' AS level, n.id
             FROM (SELECT DISTINCT key FROM unnest($2::text[]) AS key) w
             JOIN skills n ON n.organisation_id = $1 AND n.name_key = w.key
           UNION ALL
           SELECT w.key, CASE a.kind WHEN 'alias' THEN 'alias' ELSE 'hiddenAlias' END, a.skill_id
             FROM (SELECT DISTINCT key FROM unnest($2::text[]) AS key) w
             JOIN skill_aliases a ON a.organisation_id = $1 AND a.name_key = w.key
           UNION ALL
           SELECT NULL, NULL, id FROM unnest($3::uuid[]) AS id
         ) m ON s.id = m.id
        WHERE s.organisation_id = $1
          FOR KEY SHARE OF s`,
      [organisationId, keys, ids],
    );
  }

  /**
   * For each key, up to MAX_SUGGESTIONS skills whose name or alias keys are most like it (trigram similarity
   * ≥ MIN_SUGGESTION_SCORE), best first, in one call for every key: skill_suggestions_v2
   * (src/skills/sql/skill-suggestions-v2.sql) probes the trigram GIN indexes with `%`, at a high threshold first
   * and at MIN_SUGGESTION_SCORE only for the keys still short of suggestions.
   */
  async suggestions(organisationId: string, keys: string[], manager?: EntityManager): Promise<Suggestion[]> {
    if (keys.length === 0) return [];
    return this.database
      .manager(manager)
      .query<Suggestion[]>(
        `SELECT key, id, name, matched_on AS "matchedOn", score FROM skill_suggestions_v2($1, $2, $3, $4)`,
        [organisationId, keys, MIN_SUGGESTION_SCORE, MAX_SUGGESTIONS],
      );
  }
}
