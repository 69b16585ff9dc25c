import { MigrationInterface, QueryRunner } from 'typeorm';
import { createSqlFunctions } from '../sql-functions';

/**
 * Issue 46, suggestions from the names an instance holds: skill_suggestions_v2 orders ties by name in code point
 * order (COLLATE "C") then id, and prefers a name to an alias at equal scores, so the database's answer is the one
 * an instance computes in memory, on any collation. v1 stays for the instances of the release before.
 */
export class SkillSuggestionsV21763766900000 implements MigrationInterface {
  name = 'SkillSuggestionsV21763766900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createSqlFunctions(queryRunner, ['skills/sql/skill-suggestions-v2.sql']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION skill_suggestions_v2(uuid, text[], real, integer)`);
  }
}
