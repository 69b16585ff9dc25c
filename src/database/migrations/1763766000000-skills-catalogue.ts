import { MigrationInterface, QueryRunner } from 'typeorm';
import { nameKey } from '../../names/name-key';

/** Rows of the name-key backfill written per statement. */
const BACKFILL_BATCH = 5000;

/**
 * Issue 46 (one catalogue for every source): skills gain their normalised name (`name_key`, unique per
 * organisation), `source` + `external_id`, aliases in a table of their own, and groups with many parents and many
 * skills. Every existing skill and rating stays as it is.
 *
 * The key is computed by the service's one normalisation function (src/names/name-key.ts), not in SQL, so the
 * backfill runs here in TypeScript. Two existing skills whose names only the new rule makes equal ("Café" and
 * "cafe") both stay: the older (createdAt, then id) takes the key, the other keeps a NULL key until it is renamed
 * (docs/api-decisions.md, "Skill names and aliases"). The index of release 4 on lower(name) stays too: instances
 * of release 4 serving during a rolling update still answer their 409 from it.
 */
export class SkillsCatalogue1763766000000 implements MigrationInterface {
  name = 'SkillsCatalogue1763766000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE skills
        ADD COLUMN name_key text,
        ADD COLUMN source varchar(50),
        ADD COLUMN external_id varchar(500)`);
    await this.backfillNameKeys(queryRunner);
    await queryRunner.query(`CREATE UNIQUE INDEX skills_name_key_unique ON skills (organisation_id, name_key)`);
    await queryRunner.query(
      `CREATE INDEX skills_name_key_trgm_idx ON skills USING gin (organisation_id, name_key gin_trgm_ops)`,
    );
    // source + externalId identify a skill of a taxonomy; a missing source is one source of its own.
    await queryRunner.query(`
      CREATE UNIQUE INDEX skills_external_id_key ON skills (organisation_id, coalesce(source, ''), external_id)
        WHERE external_id IS NOT NULL`);

    // Aliases shown to people (kind 'alias') and names used only for matching ('hidden'), in the order given.
    await queryRunner.query(`
      CREATE TABLE skill_aliases (
        organisation_id uuid NOT NULL,
        skill_id uuid NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
        kind varchar(6) NOT NULL CHECK (kind IN ('alias', 'hidden')),
        position smallint NOT NULL,
        name varchar(200) NOT NULL,
        name_key text NOT NULL,
        PRIMARY KEY (skill_id, kind, position)
      )`);
    await queryRunner.query(`CREATE INDEX skill_aliases_key_idx ON skill_aliases (organisation_id, name_key)`);
    await queryRunner.query(
      `CREATE INDEX skill_aliases_key_trgm_idx ON skill_aliases USING gin (organisation_id, name_key gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX skill_aliases_search_idx ON skill_aliases USING gin (organisation_id, lower(name) gin_trgm_ops)`,
    );

    // One row per normalised name ever written: a write locks the rows of the keys it takes, in key order, so
    // two writers of the same name or alias wait for each other and writers of other names never do.
    await queryRunner.query(`
      CREATE TABLE skill_name_locks (
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        name_key text NOT NULL,
        PRIMARY KEY (organisation_id, name_key)
      )`);

    await queryRunner.query(`
      CREATE TABLE skill_groups (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        description varchar(4000),
        source varchar(50),
        external_id varchar(500),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX skill_groups_list_idx ON skill_groups (organisation_id, created_at, id)`);
    await queryRunner.query(
      `CREATE INDEX skill_groups_search_idx ON skill_groups USING gin (organisation_id, lower(name) gin_trgm_ops)`,
    );
    await queryRunner.query(`
      CREATE UNIQUE INDEX skill_groups_external_id_key
        ON skill_groups (organisation_id, coalesce(source, ''), external_id) WHERE external_id IS NOT NULL`);
    // A parent with children cannot go (DELETE answers 409 first); a child's links go with it.
    await queryRunner.query(`
      CREATE TABLE skill_group_parents (
        organisation_id uuid NOT NULL,
        group_id uuid NOT NULL REFERENCES skill_groups (id) ON DELETE CASCADE,
        parent_id uuid NOT NULL REFERENCES skill_groups (id) ON DELETE RESTRICT,
        PRIMARY KEY (group_id, parent_id)
      )`);
    await queryRunner.query(`CREATE INDEX skill_group_parents_parent_idx ON skill_group_parents (parent_id, group_id)`);
    await queryRunner.query(`
      CREATE TABLE skill_group_skills (
        organisation_id uuid NOT NULL,
        group_id uuid NOT NULL REFERENCES skill_groups (id) ON DELETE CASCADE,
        skill_id uuid NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
        PRIMARY KEY (skill_id, group_id)
      )`);
    await queryRunner.query(`CREATE INDEX skill_group_skills_group_idx ON skill_group_skills (group_id, skill_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE skill_group_skills`);
    await queryRunner.query(`DROP TABLE skill_group_parents`);
    await queryRunner.query(`DROP TABLE skill_groups`);
    await queryRunner.query(`DROP TABLE skill_name_locks`);
    await queryRunner.query(`DROP TABLE skill_aliases`);
    await queryRunner.query(`ALTER TABLE skills DROP COLUMN name_key, DROP COLUMN source, DROP COLUMN external_id`);
  }

  /** Each skill's key, the oldest skill of an organisation taking a key two names share. */
  private async backfillNameKeys(queryRunner: QueryRunner): Promise<void> {
    const skills = (await queryRunner.query(
      `SELECT id, organisation_id AS "organisationId", name FROM skills ORDER BY organisation_id, created_at, id`,
    )) as Array<{ id: string; organisationId: string; name: string }>;
    const taken = new Set<string>();
    const keyed: Array<{ id: string; key: string }> = [];
    for (const { id, organisationId, name } of skills) {
      const key = nameKey(name);
      if (taken.has(`${organisationId} ${key}`)) continue;
      taken.add(`${organisationId} ${key}`);
      keyed.push({ id, key });
    }
    for (let start = 0; start < keyed.length; start += BACKFILL_BATCH) {
      const batch = keyed.slice(start, start + BACKFILL_BATCH);
      await queryRunner.query(
        `UPDATE skills s SET name_key = v.key FROM unnest($1::uuid[], $2::text[]) AS v (id, key) WHERE s.id = v.id`,
        [batch.map((each) => each.id), batch.map((each) => each.key)],
      );
    }
  }
}
