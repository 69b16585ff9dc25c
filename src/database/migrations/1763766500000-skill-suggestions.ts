import { MigrationInterface, QueryRunner } from 'typeorm';
import { createSqlFunctions } from '../sql-functions';

/**
 * Issue 46, the catalogue at ESCO's size: POST /skills/resolve's suggestions in skill_suggestions_v1, which probes
 * the trigram indexes at a high similarity threshold first and at the lowest score only for the names still short
 * of suggestions (the threshold of `%` can only be set per session or transaction, and a function's SET clause
 * keeps it to the function).
 */
export class SkillSuggestions1763766500000 implements MigrationInterface {
  name = 'SkillSuggestions1763766500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createSqlFunctions(queryRunner, ['skills/sql/skill-suggestions-v1.sql']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION skill_suggestions_v1(uuid, text[], real, integer)`);
  }
}
