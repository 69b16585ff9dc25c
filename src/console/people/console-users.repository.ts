import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';
import { ConsoleRole } from './console-role';

/** A person of an organisation's console. */
export interface ConsoleUser {
  id: string;
  organisationId: string;
  email: string;
  role: ConsoleRole;
  createdAt: Date;
  lastSignInAt: Date | null;
}

/** What signing in needs: the person, their password hash (null until chosen) and their organisation's name. */
export interface SignInCandidate extends ConsoleUser {
  passwordHash: string | null;
  organisationName: string;
}

interface UserRow {
  id: string;
  organisation_id: string;
  email: string;
  role: ConsoleRole;
  created_at: Date;
  last_sign_in_at: Date | null;
}

const USER_COLUMNS = 'u.id, u.organisation_id, u.email, u.role, u.created_at, u.last_sign_in_at';

function toUser(row: UserRow): ConsoleUser {
  return {
    id: row.id,
    organisationId: row.organisation_id,
    email: row.email,
    role: row.role,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

/** The SQL of console users and their welcome tokens. */
@Injectable()
export class ConsoleUsersRepository {
  constructor(private readonly database: Database) {}

  /** False when the email is taken, in any case, by anyone of any organisation. */
  async insert(
    organisationId: string,
    user: Omit<ConsoleUser, 'organisationId'>,
    manager?: EntityManager,
  ): Promise<boolean> {
    const rows: unknown[] = await this.database.manager(manager).query(
      `INSERT INTO console_users (id, organisation_id, email, role, created_at)
       VALUES ($2, $1, $3, $4, $5)
       ON CONFLICT ((lower(email))) DO NOTHING
       RETURNING id`,
      [organisationId, user.id, user.email, user.role, user.createdAt],
    );
    return rows.length === 1;
  }

  /** The organisation's people, by email. */
  async list(organisationId: string, manager?: EntityManager): Promise<ConsoleUser[]> {
    const rows: UserRow[] = await this.database
      .manager(manager)
      .query(`SELECT ${USER_COLUMNS} FROM console_users u WHERE u.organisation_id = $1 ORDER BY lower(u.email), u.id`, [
        organisationId,
      ]);
    return rows.map(toUser);
  }

  async findById(organisationId: string, id: string, manager?: EntityManager): Promise<ConsoleUser | null> {
    const [row]: UserRow[] = await this.database
      .manager(manager)
      .query(`SELECT ${USER_COLUMNS} FROM console_users u WHERE u.organisation_id = $1 AND u.id = $2`, [
        organisationId,
        id,
      ]);
    return row ? toUser(row) : null;
  }

  /**
   * Across organisations by nature: signing in and operators name a person by email alone (unique whatever its
   * case), as a request names its key by the key alone.
   */
  async findByEmail(email: string, manager?: EntityManager): Promise<SignInCandidate | null> {
    const [row]: Array<UserRow & { password_hash: string | null; organisation_name: string }> = await this.database
      .manager(manager)
      .query(
        `SELECT ${USER_COLUMNS}, u.password_hash, o.name AS organisation_name
           FROM console_users u JOIN organisations o ON o.id = u.organisation_id
          WHERE lower(u.email) = lower($1)`,
        [email],
      );
    return row ? { ...toUser(row), passwordHash: row.password_hash, organisationName: row.organisation_name } : null;
  }

  /**
   * Locks the organisation's admins (FOR UPDATE) and answers how many there are, so that two changes at once
   * cannot both take away one of the last two admins.
   */
  async lockAdmins(organisationId: string, manager: EntityManager): Promise<number> {
    const rows: unknown[] = await this.database
      .manager(manager)
      .query(`SELECT id FROM console_users WHERE organisation_id = $1 AND role = 'admin' FOR UPDATE`, [organisationId]);
    return rows.length;
  }

  async setRole(organisationId: string, id: string, role: ConsoleRole, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`UPDATE console_users SET role = $3 WHERE organisation_id = $1 AND id = $2`, [organisationId, id, role]);
  }

  /** Their sessions and welcome tokens go with them (ON DELETE CASCADE). */
  async delete(organisationId: string, id: string, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`DELETE FROM console_users WHERE organisation_id = $1 AND id = $2`, [organisationId, id]);
  }

  async setPasswordHash(organisationId: string, id: string, hash: string, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`UPDATE console_users SET password_hash = $3 WHERE organisation_id = $1 AND id = $2`, [
        organisationId,
        id,
        hash,
      ]);
  }

  async recordSignIn(organisationId: string, id: string, at: Date, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`UPDATE console_users SET last_sign_in_at = $3 WHERE organisation_id = $1 AND id = $2`, [
        organisationId,
        id,
        at,
      ]);
  }

  /** A person's one welcome token: a new one replaces any earlier one. */
  async replaceWelcomeToken(
    organisationId: string,
    token: { hash: string; userId: string; createdAt: Date; expiresAt: Date },
    manager: EntityManager,
  ): Promise<void> {
    const database = this.database.manager(manager);
    await database.query(`DELETE FROM console_welcome_tokens WHERE organisation_id = $1 AND user_id = $2`, [
      organisationId,
      token.userId,
    ]);
    await database.query(
      `INSERT INTO console_welcome_tokens (token_hash, organisation_id, user_id, created_at, expires_at)
       VALUES ($2, $1, $3, $4, $5)`,
      [organisationId, token.hash, token.userId, token.createdAt, token.expiresAt],
    );
  }

  /**
   * Across organisations by nature: a welcome link names its token alone. The person it is for, while the token
   * is unexpired at `now`.
   */
  async findByWelcomeToken(hash: string, now: Date, manager?: EntityManager): Promise<SignInCandidate | null> {
    const [row]: Array<UserRow & { password_hash: string | null; organisation_name: string }> = await this.database
      .manager(manager)
      .query(
        `SELECT ${USER_COLUMNS}, u.password_hash, o.name AS organisation_name
           FROM console_welcome_tokens t
           JOIN console_users u ON u.id = t.user_id AND u.organisation_id = t.organisation_id
           JOIN organisations o ON o.id = u.organisation_id
          WHERE t.token_hash = $1 AND t.expires_at > $2`,
        [hash, now],
      );
    return row ? { ...toUser(row), passwordHash: row.password_hash, organisationName: row.organisation_name } : null;
  }

  /** Spends a token: false when another request spent it first (single use). */
  async deleteWelcomeToken(organisationId: string, hash: string, manager: EntityManager): Promise<boolean> {
    const [{ removed }]: Array<{ removed: number }> = await this.database.manager(manager).query(
      `WITH removed AS (
         DELETE FROM console_welcome_tokens WHERE organisation_id = $1 AND token_hash = $2 RETURNING 1
       )
       SELECT count(*)::integer AS removed FROM removed`,
      [organisationId, hash],
    );
    return removed === 1;
  }

  /** Across organisations by nature (retention): tokens past their 72 hours. */
  async deleteExpiredWelcomeTokens(now: Date, batch: number, manager: EntityManager): Promise<number> {
    const [{ removed }]: Array<{ removed: number }> = await this.database.manager(manager).query(
      `WITH removed AS (
         DELETE FROM console_welcome_tokens
          WHERE token_hash = ANY (ARRAY(SELECT token_hash FROM console_welcome_tokens WHERE expires_at <= $1 LIMIT $2))
         RETURNING 1
       )
       SELECT count(*)::integer AS removed FROM removed`,
      [now, batch],
    );
    return removed;
  }
}
