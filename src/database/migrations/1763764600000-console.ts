import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 39 (the console, Settings in a browser): an organisation's people, their welcome links, their
 * sessions, the failed sign-ins that lock an email, the activity log and each organisation's single sign-on.
 * Secrets are kept only as SHA-256 hashes (welcome tokens, session ids), as scrypt hashes (passwords) or
 * sealed (the SSO client secret, with the key that seals webhook secrets).
 */
export class Console1763764600000 implements MigrationInterface {
  name = 'Console1763764600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE console_users (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        email varchar(254) NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'viewer')),
        -- Null until the person chooses a password through a welcome link.
        password_hash text,
        created_at timestamptz(3) NOT NULL,
        last_sign_in_at timestamptz(3)
      )`);
    // One person per email across the service, whatever its case: sign-in names only the email.
    await queryRunner.query(`CREATE UNIQUE INDEX console_users_email_key ON console_users (lower(email))`);
    await queryRunner.query(`CREATE INDEX console_users_organisation_idx ON console_users (organisation_id)`);

    await queryRunner.query(`
      CREATE TABLE console_welcome_tokens (
        token_hash char(64) PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
        created_at timestamptz(3) NOT NULL,
        expires_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX console_welcome_tokens_user_idx ON console_welcome_tokens (user_id)`);
    await queryRunner.query(`CREATE INDEX console_welcome_tokens_expires_idx ON console_welcome_tokens (expires_at)`);

    await queryRunner.query(`
      CREATE TABLE console_sessions (
        id_hash char(64) PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
        created_at timestamptz(3) NOT NULL,
        -- Written at most once a minute per session.
        last_activity_at timestamptz(3) NOT NULL
      )`);
    // Ending every session of a person (sign-out elsewhere, a role change), and pruning by age.
    await queryRunner.query(`CREATE INDEX console_sessions_user_idx ON console_sessions (user_id)`);
    await queryRunner.query(`CREATE INDEX console_sessions_created_idx ON console_sessions (created_at)`);

    // By email, lower-cased, known or not: the lockout counts attempts at an email, not at a person.
    await queryRunner.query(`
      CREATE TABLE console_failed_sign_ins (
        email varchar(254) NOT NULL,
        attempted_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX console_failed_sign_ins_email_idx ON console_failed_sign_ins (email, attempted_at)`,
    );
    await queryRunner.query(
      `CREATE INDEX console_failed_sign_ins_attempted_idx ON console_failed_sign_ins (attempted_at)`,
    );

    await queryRunner.query(`
      CREATE TABLE console_activity (
        -- UUID v7: the log's order, newest first by id.
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        at timestamptz(3) NOT NULL,
        -- A person's email as it was then, or "cli" for the command line.
        actor varchar(254) NOT NULL,
        action varchar(64) NOT NULL,
        target text,
        client_address varchar(64)
      )`);
    await queryRunner.query(`CREATE INDEX console_activity_page_idx ON console_activity (organisation_id, id)`);
    await queryRunner.query(`CREATE INDEX console_activity_at_idx ON console_activity (at)`);

    await queryRunner.query(`
      CREATE TABLE console_sso (
        organisation_id uuid PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
        issuer text NOT NULL,
        client_id text NOT NULL,
        -- AES-256-GCM (encryption/secret-box.ts), bound to the organisation's id.
        client_secret_sealed bytea NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE console_sso`);
    await queryRunner.query(`DROP TABLE console_activity`);
    await queryRunner.query(`DROP TABLE console_failed_sign_ins`);
    await queryRunner.query(`DROP TABLE console_sessions`);
    await queryRunner.query(`DROP TABLE console_welcome_tokens`);
    await queryRunner.query(`DROP TABLE console_users`);
  }
}
