import { MigrationInterface, QueryRunner } from 'typeorm';
import { createSqlFunctions } from '../sql-functions';

/**
 * Issue 46, resolve at ESCO's size: a version per organisation's catalogue names, counted by a deferred trigger on
 * every change to a skill's name or to an alias, so an instance may keep the names in memory and know, with one
 * primary-key read, whether what it holds is what the database holds (src/skills/resolve/catalogue-names.ts). An
 * organisation with no row has not changed its names since this migration: version 0.
 */
export class CatalogueVersions1763766800000 implements MigrationInterface {
  name = 'CatalogueVersions1763766800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE catalogue_versions (
        organisation_id uuid PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
        version bigint NOT NULL
      )`);
    await createSqlFunctions(queryRunner, ['skills/sql/catalogue-changed-v1.sql']);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER skills_catalogue_changed
        AFTER INSERT OR DELETE OR UPDATE OF name, name_key ON skills
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_changed_v1()`);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER skill_aliases_catalogue_changed
        AFTER INSERT OR DELETE OR UPDATE ON skill_aliases
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_changed_v1()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER skill_aliases_catalogue_changed ON skill_aliases`);
    await queryRunner.query(`DROP TRIGGER skills_catalogue_changed ON skills`);
    await queryRunner.query(`DROP FUNCTION catalogue_changed_v1()`);
    await queryRunner.query(`DROP TABLE catalogue_versions`);
  }
}
