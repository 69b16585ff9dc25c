import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';
import { escapeLikePattern } from '../../database/like-pattern';
import { SqlConditions } from '../../database/sql-conditions';
import { isUuid } from '../../database/uuid';
import { ConflictError, NotFoundError } from '../../errors/errors';
import { mapConstraintErrors } from '../../errors/postgres-errors';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../../pagination/cursor';
import { ListSkillGroupsQuery } from './dto/list-skill-groups.query';
import { SkillGroupRecord } from './dto/skill-group.response';

const EXTERNAL_ID_TAKEN = 'A skill group with this source and externalId already exists';
const UNIQUE = { skill_groups_external_id_key: EXTERNAL_ID_TAKEN };

/** A group's columns and its parents (by name, then id), from the skill_groups row aliased `g`. */
const GROUP_SELECT = `g.id, g.name, g.description, g.source, g.external_id AS "externalId",
  g.created_at AS "createdAt", g.updated_at AS "updatedAt", g.version,
  coalesce((SELECT json_agg(json_build_object('id', p.id, 'name', p.name) ORDER BY p.name COLLATE "C", p.id)
              FROM skill_group_parents l JOIN skill_groups p ON p.id = l.parent_id
             WHERE l.group_id = g.id), '[]') AS parents`;

/** All SQL of skill groups: the groups, their parent links, and what lies below a group. */
@Injectable()
export class SkillGroupsRepository {
  constructor(private readonly database: Database) {}

  /** One window in list order (createdAt, id) and, in page mode, the total. */
  async findPage(
    organisationId: string,
    query: ListSkillGroupsQuery,
    window: PageWindow,
    manager?: EntityManager,
  ): Promise<ListRows<SkillGroupRecord>> {
    const where = new SqlConditions().and('g.organisation_id = ?', organisationId);
    if (query.search !== undefined) {
      where.and(`lower(g.name) LIKE '%' || lower(?) || '%'`, escapeLikePattern(query.search));
    }
    if (query.parentId === 'root') {
      where.and('NOT EXISTS (SELECT FROM skill_group_parents l WHERE l.group_id = g.id)');
    } else if (query.parentId !== undefined) {
      where.and('g.id IN (SELECT l.group_id FROM skill_group_parents l WHERE l.parent_id = ?::uuid)', query.parentId);
    }
    const total = window.counted ? this.count(where, manager) : null;
    const order: ListOrder<SkillGroupRecord> = {
      columns: ['g.created_at', 'g.id'],
      descending: false,
      keyOf: (group) => [group.createdAt, group.id],
    };
    where.after(order.columns, order.descending, window.after);
    const page = where.page(window.fetch, window.offset);
    const [rows, counted] = await Promise.all([
      this.database
        .manager(manager)
        .query<SkillGroupRecord[]>(
          `SELECT ${GROUP_SELECT} FROM skill_groups g WHERE ${where.sql} ORDER BY ${orderByColumns(order)} ${page.sql}`,
          page.parameters,
        ),
      total,
    ]);
    return { rows, order, total: counted };
  }

  /** The group, or 404; a malformed id is unknown too. `forUpdate`: locked until the transaction ends. */
  async findOrFail(
    organisationId: string,
    id: string,
    manager?: EntityManager,
    forUpdate = false,
  ): Promise<SkillGroupRecord> {
    if (!isUuid(id)) throw new NotFoundError('SkillGroup');
    const [row] = await this.database.manager(manager).query<SkillGroupRecord[]>(
      `SELECT ${GROUP_SELECT} FROM skill_groups g WHERE g.organisation_id = $1 AND g.id = $2
       ${forUpdate ? 'FOR UPDATE OF g' : ''}`,
      [organisationId, id.toLowerCase()],
    );
    if (!row) throw new NotFoundError('SkillGroup');
    return row;
  }

  /**
   * The ids of the group and of every group below it, each once (a polyhierarchy reaches a group by several
   * paths), or 404 when the organisation has no such group; a malformed id is unknown too.
   */
  async subtreeIdsOrFail(organisationId: string, id: string, manager?: EntityManager): Promise<string[]> {
    if (!isUuid(id)) throw new NotFoundError('SkillGroup');
    const [{ ids }] = await this.database
      .manager(manager)
      .query<{ ids: string[] }[]>(`SELECT skill_group_subtree_v1($1, $2) AS ids`, [organisationId, id.toLowerCase()]);
    if (ids.length === 0) throw new NotFoundError('SkillGroup');
    return ids;
  }

  /** Skills in the group or in any group below it, each once (src/skills/sql/skill-group-skill-count-v1.sql). */
  async countSkills(organisationId: string, id: string, manager?: EntityManager): Promise<number> {
    const [{ count }] = await this.database
      .manager(manager)
      .query<{ count: number }[]>(`SELECT skill_group_skill_count_v1($1, skill_group_subtree_v1($1, $2)) AS count`, [
        organisationId,
        id,
      ]);
    return count;
  }

  /** source + externalId the organisation already has is 409. */
  async insert(organisationId: string, group: SkillGroupRecord, manager: EntityManager): Promise<void> {
    const [{ written }] = await this.database.manager(manager).query<{ written: number }[]>(
      `WITH written AS (
         INSERT INTO skill_groups (id, organisation_id, name, description, source, external_id, created_at, updated_at)
         VALUES ($2, $1, $3, $4, $5, $6, $7, $7)
         ON CONFLICT DO NOTHING
         RETURNING 1)
       SELECT count(*)::int AS written FROM written`,
      [organisationId, group.id, group.name, group.description, group.source, group.externalId, group.createdAt],
    );
    if (written === 0) throw new ConflictError(EXTERNAL_ID_TAKEN);
  }

  /** Writes the group's fields and updatedAt unless they all equal the stored ones; answers whether it wrote. */
  async update(organisationId: string, group: SkillGroupRecord, manager: EntityManager): Promise<boolean> {
    const written = await mapConstraintErrors(
      this.database.manager(manager).query<{ id: string }[]>(
        `WITH written AS (
           UPDATE skill_groups g SET name = $3, description = $4, source = $5, external_id = $6, updated_at = $7
            WHERE g.organisation_id = $1 AND g.id = $2
              AND (g.name, g.description, g.source, g.external_id) IS DISTINCT FROM ($3, $4, $5, $6)
           RETURNING g.id)
         SELECT id FROM written`,
        [organisationId, group.id, group.name, group.description, group.source, group.externalId, group.updatedAt],
      ),
      { unique: UNIQUE },
    );
    return written.length > 0;
  }

  /**
   * Serialises, per organisation, the changes of the hierarchy that could close a circle (a PATCH of parentIds),
   * until the transaction ends: two such changes checked side by side could each pass and together make one.
   */
  async lockHierarchy(organisationId: string, manager: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`SELECT pg_advisory_xact_lock(hashtextextended('skill_group_parents ' || $1, 0))`, [organisationId]);
  }

  /** 404 unless each of `ids` is a group of the organisation (a malformed id is unknown too). */
  async assertGroupsExist(organisationId: string, ids: string[], manager: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    if (!ids.every((id) => isUuid(id))) throw new NotFoundError('SkillGroup');
    const [{ found }] = await this.database
      .manager(manager)
      .query<{ found: number }[]>(
        `SELECT count(*)::int AS found FROM skill_groups WHERE organisation_id = $1 AND id = ANY ($2::uuid[])`,
        [organisationId, ids],
      );
    if (found < ids.length) throw new NotFoundError('SkillGroup');
  }

  /** Whether `id` is one of `parentIds` or lies above one of them (the change would close a circle). */
  async isAncestorOrSelf(organisationId: string, id: string, parentIds: string[], manager: EntityManager) {
    const [{ circular }] = await this.database.manager(manager).query<{ circular: boolean }[]>(
      `WITH RECURSIVE above (id) AS (
         SELECT unnest($2::uuid[])
         UNION SELECT l.parent_id FROM skill_group_parents l JOIN above ON l.group_id = above.id
          WHERE l.organisation_id = $1
       )
       SELECT EXISTS (SELECT FROM above WHERE id = $3) AS circular`,
      [organisationId, parentIds, id],
    );
    return circular;
  }

  /** Makes the group's parent links these; answers whether they changed. */
  async setParents(organisationId: string, id: string, parentIds: string[], manager: EntityManager): Promise<boolean> {
    const query = this.database.manager(manager);
    const removed = await query.query<unknown[]>(
      `WITH removed AS (
         DELETE FROM skill_group_parents
          WHERE organisation_id = $1 AND group_id = $2 AND NOT (parent_id = ANY ($3::uuid[]))
         RETURNING 1)
       SELECT 1 FROM removed`,
      [organisationId, id, parentIds],
    );
    const added = await mapConstraintErrors(
      query.query<unknown[]>(
        `WITH added AS (
           INSERT INTO skill_group_parents (organisation_id, group_id, parent_id)
           SELECT $1, $2, unnest($3::uuid[])
           ON CONFLICT DO NOTHING
           RETURNING 1)
         SELECT 1 FROM added`,
        [organisationId, id, parentIds],
      ),
      { foreignKey: () => new NotFoundError('SkillGroup') },
    );
    return removed.length + added.length > 0;
  }

  /** The names of these groups (all of the organisation), by name, then id. */
  async refs(organisationId: string, ids: string[], manager: EntityManager) {
    return this.database.manager(manager).query<{ id: string; name: string }[]>(
      `SELECT id, name FROM skill_groups WHERE organisation_id = $1 AND id = ANY ($2::uuid[])
        ORDER BY name COLLATE "C", id`,
      [organisationId, ids],
    );
  }

  /** The groups of `source` with these externalIds, locked until the transaction ends. */
  async lockBySource(
    organisationId: string,
    source: string,
    externalIds: string[],
    manager: EntityManager,
  ): Promise<SkillGroupRecord[]> {
    return this.database.manager(manager).query<SkillGroupRecord[]>(
      `SELECT ${GROUP_SELECT} FROM skill_groups g
        WHERE g.organisation_id = $1 AND g.source = $2 AND g.external_id = ANY ($3::text[])
        ORDER BY g.id FOR UPDATE OF g`,
      [organisationId, source, externalIds],
    );
  }

  /** Many new groups in one statement (their parents: addParents). */
  async insertMany(organisationId: string, groups: SkillGroupRecord[], manager: EntityManager): Promise<void> {
    if (groups.length === 0) return;
    await mapConstraintErrors(
      this.database.manager(manager).query(
        `INSERT INTO skill_groups (id, organisation_id, name, description, source, external_id, created_at, updated_at)
         SELECT v.id, $1, v.name, v.description, v.source, v.external_id, v.at, v.at
           FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
                AS v (id, name, description, source, external_id, at)`,
        [organisationId, ...groupArrays(groups), groups.map((group) => group.createdAt)],
      ),
      { unique: UNIQUE },
    );
  }

  /** Writes the fields and updatedAt of many groups in one statement. */
  async updateMany(organisationId: string, groups: SkillGroupRecord[], manager: EntityManager): Promise<void> {
    if (groups.length === 0) return;
    await mapConstraintErrors(
      this.database.manager(manager).query(
        `UPDATE skill_groups g
            SET name = v.name, description = v.description, source = v.source, external_id = v.external_id,
                updated_at = v.at
           FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
                AS v (id, name, description, source, external_id, at)
          WHERE g.organisation_id = $1 AND g.id = v.id`,
        [organisationId, ...groupArrays(groups), groups.map((group) => group.updatedAt)],
      ),
      { unique: UNIQUE },
    );
  }

  /** Adds these parent links (those already there stay as they are); answers how many it added. */
  async addParents(
    organisationId: string,
    links: { groupId: string; parentId: string }[],
    manager: EntityManager,
  ): Promise<number> {
    if (links.length === 0) return 0;
    const [{ added }] = await this.database.manager(manager).query<{ added: number }[]>(
      `WITH added AS (
         INSERT INTO skill_group_parents (organisation_id, group_id, parent_id)
         SELECT $1, v.group_id, v.parent_id FROM unnest($2::uuid[], $3::uuid[]) AS v (group_id, parent_id)
         ON CONFLICT DO NOTHING
         RETURNING 1)
       SELECT count(*)::int AS added FROM added`,
      [organisationId, links.map((link) => link.groupId), links.map((link) => link.parentId)],
    );
    return added;
  }

  /** Whether some group of the organisation lies above itself (a circle the parent links close). */
  async hasCircle(organisationId: string, manager: EntityManager): Promise<boolean> {
    const [{ circular }] = await this.database.manager(manager).query<{ circular: boolean }[]>(
      `WITH RECURSIVE above (start, id, path_circular) AS (
         SELECT l.group_id, l.parent_id, l.group_id = l.parent_id
           FROM skill_group_parents l WHERE l.organisation_id = $1
         UNION
         SELECT above.start, l.parent_id, l.parent_id = above.start
           FROM above JOIN skill_group_parents l ON l.group_id = above.id
          WHERE NOT above.path_circular
       )
       SELECT EXISTS (SELECT FROM above WHERE path_circular) AS circular`,
      [organisationId],
    );
    return circular;
  }

  /** Moves updatedAt: a change of the parents alone is a change of the group. */
  async touch(organisationId: string, id: string, updatedAt: Date, manager: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`UPDATE skill_groups SET updated_at = $3 WHERE organisation_id = $1 AND id = $2`, [
        organisationId,
        id,
        updatedAt,
      ]);
  }

  async hasChildren(organisationId: string, id: string, manager: EntityManager): Promise<boolean> {
    const [{ children }] = await this.database
      .manager(manager)
      .query<{ children: boolean }[]>(
        `SELECT EXISTS (SELECT FROM skill_group_parents WHERE organisation_id = $1 AND parent_id = $2) AS children`,
        [organisationId, id],
      );
    return children;
  }

  /** Its skills just leave it (their links cascade); a child linked meanwhile is 409. */
  async delete(organisationId: string, id: string, manager: EntityManager): Promise<void> {
    await mapConstraintErrors(
      this.database
        .manager(manager)
        .query(`DELETE FROM skill_groups WHERE organisation_id = $1 AND id = $2`, [organisationId, id]),
      { foreignKey: () => new ConflictError('The skill group has child groups and cannot be deleted') },
    );
  }

  private async count(where: SqlConditions, manager?: EntityManager): Promise<number> {
    const [row] = await this.database
      .manager(manager)
      .query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM skill_groups g WHERE ${where.sql}`,
        where.parameters,
      );
    return row.total;
  }
}

/** The columns insertMany and updateMany bind, one array each. */
function groupArrays(groups: SkillGroupRecord[]): unknown[][] {
  return [
    groups.map((group) => group.id),
    groups.map((group) => group.name),
    groups.map((group) => group.description),
    groups.map((group) => group.source),
    groups.map((group) => group.externalId),
  ];
}
