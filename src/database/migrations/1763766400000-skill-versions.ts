import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 47 for the skills catalogue: skills and skill groups carry a `version` as employees do (1 for the rows
 * there are), bumped by a trigger in the statement that changes the row, so every writer (a PATCH, a bulk item,
 * the ESCO import, an instance of the release before) moves it, and an UPDATE that changes nothing does not. A
 * change of a skill's aliases or groups alone moves its updated_at, so it moves the version too. The trigger
 * function is the employees' one: it only sets NEW.version from OLD.version. Skill group events name their group
 * now (resource_id, as the skill events do since 1763766100000); those recorded before are filled from their
 * data.id, their version unknown (0).
 */
export class SkillVersions1763766400000 implements MigrationInterface {
  name = 'SkillVersions1763766400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE skills ADD COLUMN version integer NOT NULL DEFAULT 1`);
    await queryRunner.query(`ALTER TABLE skill_groups ADD COLUMN version integer NOT NULL DEFAULT 1`);
    await queryRunner.query(`
      UPDATE events SET resource_id = (convert_from(body, 'UTF8')::jsonb #>> '{data,id}')::uuid
       WHERE event IN ('skill_group.created', 'skill_group.updated', 'skill_group.deleted')`);
    for (const table of ['skills', 'skill_groups']) {
      await queryRunner.query(`
        CREATE TRIGGER ${table}_version_bump BEFORE UPDATE ON ${table}
          FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION employee_version_bump_v1()`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER skill_groups_version_bump ON skill_groups`);
    await queryRunner.query(`DROP TRIGGER skills_version_bump ON skills`);
    await queryRunner.query(`
      UPDATE events SET resource_id = NULL
       WHERE event IN ('skill_group.created', 'skill_group.updated', 'skill_group.deleted')`);
    await queryRunner.query(`ALTER TABLE skill_groups DROP COLUMN version`);
    await queryRunner.query(`ALTER TABLE skills DROP COLUMN version`);
  }
}
