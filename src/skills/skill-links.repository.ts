import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { ConflictError, NotFoundError } from '../errors/errors';
import { mapConstraintErrors } from '../errors/postgres-errors';
import { nameKey } from '../names/name-key';
import { SkillRecord } from './dto/skill.response';

/** An alias row as a skill's record lists it: its kind and place among that kind. */
interface AliasRow {
  skillId: string;
  kind: 'alias' | 'hidden';
  position: number;
  name: string;
  key: string;
}

/** A skill's aliases of both kinds as rows, in order. */
function aliasRows(skill: SkillRecord): AliasRow[] {
  const rows = (kind: AliasRow['kind'], names: string[]) =>
    names.map((name, position) => ({ skillId: skill.id, kind, position, name, key: nameKey(name) }));
  return [...rows('alias', skill.aliases), ...rows('hidden', skill.hiddenAliases)];
}

/**
 * The SQL of what a skill holds beside its row: its aliases (skill_aliases), its groups (skill_group_skills),
 * and the rule that keeps names and aliases apart, with the locks that make it hold under concurrent writers.
 */
@Injectable()
export class SkillLinksRepository {
  constructor(private readonly database: Database) {}

  /**
   * Locks, until the transaction ends, every name and alias key the skills take (skill_name_locks, in key
   * order, so two writers never wait for each other in a circle): a writer of the same name or alias waits, a
   * writer of other names never does. The checks of assertNamesApart read after these locks, so they see what
   * every earlier writer of those keys committed. A PATCH or bulk item runs this after locking its skill row.
   */
  async lockNames(organisationId: string, skills: SkillRecord[], manager: EntityManager): Promise<void> {
    const keys = new Set<string>();
    for (const skill of skills) {
      if (skill.nameKey !== null) keys.add(skill.nameKey);
      for (const row of aliasRows(skill)) keys.add(row.key);
    }
    // ON CONFLICT DO UPDATE … WHERE false locks the existing row without writing a new version of it.
    await this.database.manager(manager).query(
      `INSERT INTO skill_name_locks (organisation_id, name_key)
       SELECT $1, k FROM unnest($2::text[]) AS k ORDER BY k COLLATE "C"
       ON CONFLICT (organisation_id, name_key) DO UPDATE SET name_key = excluded.name_key WHERE false`,
      [organisationId, [...keys]],
    );
  }

  /** Whether a skill of the organisation other than these has the source + externalId of one of them. */
  async externalIdTaken(organisationId: string, skills: SkillRecord[], manager: EntityManager): Promise<boolean> {
    const external = skills.filter((skill) => skill.externalId !== null);
    if (external.length === 0) return false;
    const [{ taken }] = await this.database.manager(manager).query<{ taken: boolean }[]>(
      `SELECT EXISTS (
         SELECT FROM skills s JOIN unnest($2::uuid[], $3::text[], $4::text[]) AS v (id, source, external_id)
           ON coalesce(s.source, '') = coalesce(v.source, '') AND s.external_id = v.external_id
          WHERE s.organisation_id = $1 AND s.id <> v.id) AS taken`,
      [
        organisationId,
        external.map((skill) => skill.id),
        external.map((skill) => skill.source),
        external.map((skill) => skill.externalId),
      ],
    );
    return taken;
  }

  /**
   * Makes the stored aliases and group links of the skills those of their records, and fills in the names of
   * their groups (a group the organisation lacks is 404). Answers the ids of the skills whose aliases or groups
   * changed. `created`: the skills are new, so nothing of theirs is stored yet.
   */
  async write(
    organisationId: string,
    skills: SkillRecord[],
    created: boolean,
    manager: EntityManager,
  ): Promise<Set<string>> {
    const changed = new Set<string>();
    for (const id of await this.writeAliases(organisationId, skills, created, manager)) changed.add(id);
    for (const id of await this.writeGroups(organisationId, skills, created, manager)) changed.add(id);
    return changed;
  }

  /**
   * 409 when an alias of one of the skills is a skill's name, or the name of one is another skill's alias,
   * compared by name key; `details` name the other skill's id.
   */
  async assertNamesApart(organisationId: string, skills: SkillRecord[], manager: EntityManager): Promise<void> {
    const ids = skills.map((skill) => skill.id);
    const keys = [
      ...new Set(
        skills.flatMap((skill) => [
          ...(skill.nameKey === null ? [] : [skill.nameKey]),
          ...aliasRows(skill).map((row) => row.key),
        ]),
      ),
    ];
    const [clash] = await this.database
      .manager(manager)
      .query<{ aliasOf: string; alias: string; kind: string; nameOf: string; name: string }[]>(
        `SELECT a.skill_id AS "aliasOf", a.name AS alias, a.kind, s.id AS "nameOf", s.name
         FROM skill_aliases a
         JOIN skills s ON s.organisation_id = a.organisation_id AND s.name_key = a.name_key
        WHERE a.organisation_id = $1 AND a.name_key = ANY ($2::text[])
          AND (a.skill_id = ANY ($3::uuid[]) OR s.id = ANY ($3::uuid[]))
        ORDER BY a.skill_id, a.kind, a.position
        LIMIT 1`,
        [organisationId, keys, ids],
      );
    if (!clash) return;
    if (ids.includes(clash.aliasOf)) {
      const field = clash.kind === 'alias' ? 'aliases' : 'hiddenAliases';
      const message = `"${clash.alias}" is the name of skill ${clash.nameOf}`;
      throw new ConflictError(`An alias is the name of a skill: ${message}`, [{ field, message }]);
    }
    const message = `"${clash.name}" is an alias of skill ${clash.aliasOf}`;
    throw new ConflictError(`The name is an alias of another skill: ${message}`, [{ field: 'name', message }]);
  }

  /** Deletes the stored aliases that differ from the records', then inserts the missing ones. */
  private async writeAliases(
    organisationId: string,
    skills: SkillRecord[],
    created: boolean,
    manager: EntityManager,
  ): Promise<string[]> {
    const rows = skills.flatMap(aliasRows);
    const columns = [
      rows.map((row) => row.skillId),
      rows.map((row) => row.kind),
      rows.map((row) => row.position),
      rows.map((row) => row.name),
    ];
    const query = this.database.manager(manager);
    const removed = created
      ? []
      : await query.query<{ id: string }[]>(
          `WITH removed AS (
             DELETE FROM skill_aliases a
              WHERE a.organisation_id = $1 AND a.skill_id = ANY ($2::uuid[])
                AND NOT EXISTS (
                  SELECT FROM unnest($3::uuid[], $4::text[], $5::int[], $6::text[]) AS d (skill_id, kind, position, name)
                   WHERE d.skill_id = a.skill_id AND d.kind = a.kind AND d.position = a.position AND d.name = a.name)
             RETURNING a.skill_id)
           SELECT DISTINCT skill_id AS id FROM removed`,
          [organisationId, skills.map((skill) => skill.id), ...columns],
        );
    if (rows.length === 0) return removed.map((row) => row.id);
    const added = await query.query<{ id: string }[]>(
      `WITH added AS (
         INSERT INTO skill_aliases (organisation_id, skill_id, kind, position, name, name_key)
         SELECT $1, d.* FROM unnest($2::uuid[], $3::text[], $4::int[], $5::text[], $6::text[])
                AS d (skill_id, kind, position, name, name_key)
          WHERE NOT EXISTS (
            SELECT FROM skill_aliases a WHERE a.skill_id = d.skill_id AND a.kind = d.kind AND a.position = d.position)
         RETURNING skill_id)
       SELECT DISTINCT skill_id AS id FROM added`,
      [organisationId, ...columns, rows.map((row) => row.key)],
    );
    return [...removed, ...added].map((row) => row.id);
  }

  /**
   * Checks the records' groups are the organisation's (key-share locked, so none is deleted before the links
   * commit; 404 otherwise), names them, then deletes the links the records lack and inserts the missing ones.
   */
  private async writeGroups(
    organisationId: string,
    skills: SkillRecord[],
    created: boolean,
    manager: EntityManager,
  ): Promise<string[]> {
    const links = skills.flatMap((skill) => skill.groups.map((group) => ({ skillId: skill.id, groupId: group.id })));
    const query = this.database.manager(manager);
    const groupIds = [...new Set(links.map((link) => link.groupId))];
    if (groupIds.length > 0) {
      const groups = await query.query<{ id: string; name: string }[]>(
        `SELECT id, name FROM skill_groups WHERE organisation_id = $1 AND id = ANY ($2::uuid[]) FOR KEY SHARE`,
        [organisationId, groupIds],
      );
      if (groups.length < groupIds.length) throw new NotFoundError('SkillGroup');
      const nameOf = new Map(groups.map((group) => [group.id, group.name]));
      for (const skill of skills) {
        skill.groups = skill.groups
          .map((group) => ({ id: group.id, name: nameOf.get(group.id)! }))
          .sort((a, b) => (a.name === b.name ? compare(a.id, b.id) : compare(a.name, b.name)));
      }
    }
    const columns = [links.map((link) => link.skillId), links.map((link) => link.groupId)];
    const removed = created
      ? []
      : await query.query<{ id: string }[]>(
          `WITH removed AS (
             DELETE FROM skill_group_skills l
              WHERE l.organisation_id = $1 AND l.skill_id = ANY ($2::uuid[])
                AND NOT EXISTS (SELECT FROM unnest($3::uuid[], $4::uuid[]) AS d (skill_id, group_id)
                                 WHERE d.skill_id = l.skill_id AND d.group_id = l.group_id)
             RETURNING l.skill_id)
           SELECT DISTINCT skill_id AS id FROM removed`,
          [organisationId, skills.map((skill) => skill.id), ...columns],
        );
    if (links.length === 0) return removed.map((row) => row.id);
    const added = await mapConstraintErrors(
      query.query<{ id: string }[]>(
        `WITH added AS (
           INSERT INTO skill_group_skills (organisation_id, skill_id, group_id)
           SELECT $1, d.skill_id, d.group_id FROM unnest($2::uuid[], $3::uuid[]) AS d (skill_id, group_id)
           ON CONFLICT DO NOTHING
           RETURNING skill_id)
         SELECT DISTINCT skill_id AS id FROM added`,
        [organisationId, ...columns],
      ),
      { foreignKey: () => new NotFoundError('SkillGroup') },
    );
    return [...removed, ...added].map((row) => row.id);
  }
}

/** Code-point order, as the database's ORDER BY of group names reads for plain names. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
