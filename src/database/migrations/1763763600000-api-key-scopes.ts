import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 22 (least privilege): a key's scopes, name (the label it had), expiry and last use. Keys made before
 * scopes keep doing everything, so they get all four; new rows name their scopes (no default), so the code
 * that makes a key decides, and the check keeps out anything else.
 */
export class ApiKeyScopes1763763600000 implements MigrationInterface {
  name = 'ApiKeyScopes1763763600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys RENAME COLUMN label TO name`);
    await queryRunner.query(`
      ALTER TABLE api_keys
        ADD COLUMN scopes text[] NOT NULL DEFAULT ARRAY['read', 'write', 'webhooks', 'events'],
        ADD COLUMN expires_at timestamptz(3),
        ADD COLUMN last_used_at timestamptz(3),
        ADD CONSTRAINT api_keys_scopes_check
          CHECK (scopes <@ ARRAY['read', 'write', 'webhooks', 'events'] AND cardinality(scopes) > 0)`);
    await queryRunner.query(`ALTER TABLE api_keys ALTER COLUMN scopes DROP DEFAULT`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_keys
        DROP CONSTRAINT api_keys_scopes_check,
        DROP COLUMN last_used_at,
        DROP COLUMN expires_at,
        DROP COLUMN scopes`);
    await queryRunner.query(`ALTER TABLE api_keys RENAME COLUMN name TO label`);
  }
}
