import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1763762400000 implements MigrationInterface {
  name = 'Foundation1763762400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`
      CREATE TABLE organisations (
        id uuid PRIMARY KEY,
        name varchar(200) NOT NULL,
        created_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX organisations_name_key ON organisations (lower(name))`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        label varchar(200),
        key_hash char(64) NOT NULL,
        created_at timestamptz(3) NOT NULL,
        revoked_at timestamptz(3)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)`);
    await queryRunner.query(`CREATE INDEX api_keys_organisation_id_idx ON api_keys (organisation_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE organisations`);
  }
}
