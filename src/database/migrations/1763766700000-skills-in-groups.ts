import { MigrationInterface, QueryRunner } from 'typeorm';
import { createSqlFunctions } from '../sql-functions';

/**
 * Issue 46, the catalogue at ESCO's size: a group's subtree and the number of skills below it in
 * skill_group_subtree_v1 and skill_group_skill_count_v1, whose plans are kept per session (GET /skills?groupId=
 * and GET /skill-groups/{id} of a top group planned ~200 bound ids and scanned every link of the organisation).
 */
export class SkillsInGroups1763766700000 implements MigrationInterface {
  name = 'SkillsInGroups1763766700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createSqlFunctions(queryRunner, [
      'skills/sql/skill-group-subtree-v1.sql',
      'skills/sql/skill-group-skill-count-v1.sql',
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION skill_group_skill_count_v1(uuid, uuid[])`);
    await queryRunner.query(`DROP FUNCTION skill_group_subtree_v1(uuid, uuid)`);
  }
}
