import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';
import { ConsoleRole } from '../people/console-role';

/** A live session with its person and organisation, as the console guard needs it. */
export interface SessionRow {
  organisationId: string;
  organisationName: string;
  userId: string;
  email: string;
  role: ConsoleRole;
  lastActivityAt: Date;
}

/** The SQL of console sessions and of the failed sign-ins that lock an email. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly database: Database) {}

  async insert(
    organisationId: string,
    session: { idHash: string; userId: string; createdAt: Date },
    manager?: EntityManager,
  ): Promise<void> {
    await this.database.manager(manager).query(
      `INSERT INTO console_sessions (id_hash, organisation_id, user_id, created_at, last_activity_at)
       VALUES ($2, $1, $3, $4, $4)`,
      [organisationId, session.idHash, session.userId, session.createdAt],
    );
  }

  /**
   * Across organisations by nature: a request names its session by the cookie alone, as it names its key. The
   * session while it is used since `idleSince` and began after `startedSince`, with its person as they are now
   * (a role change or a removal ends every session at once anyway).
   */
  async findLive(
    idHash: string,
    idleSince: Date,
    startedSince: Date,
    manager?: EntityManager,
  ): Promise<SessionRow | null> {
    const [row]: Array<{
      organisation_id: string;
      organisation_name: string;
      user_id: string;
      email: string;
      role: ConsoleRole;
      last_activity_at: Date;
    }> = await this.database.manager(manager).query(
      `SELECT s.organisation_id, o.name AS organisation_name, s.user_id, u.email, u.role, s.last_activity_at
         FROM console_sessions s
         JOIN console_users u ON u.id = s.user_id AND u.organisation_id = s.organisation_id
         JOIN organisations o ON o.id = s.organisation_id
        WHERE s.id_hash = $1 AND s.last_activity_at > $2 AND s.created_at > $3`,
      [idHash, idleSince, startedSince],
    );
    return row
      ? {
          organisationId: row.organisation_id,
          organisationName: row.organisation_name,
          userId: row.user_id,
          email: row.email,
          role: row.role,
          lastActivityAt: row.last_activity_at,
        }
      : null;
  }

  /**
   * Bookkeeping (the one write of a session's last activity, see BookkeepingWrites): writes only when the stored
   * time is a minute old or more, so several instances write a session about once a minute.
   */
  async touch(organisationId: string, idHash: string, at: Date, manager?: EntityManager): Promise<void> {
    await this.database.manager(manager).query(
      `UPDATE console_sessions SET last_activity_at = $3
        WHERE organisation_id = $1 AND id_hash = $2 AND last_activity_at <= $3::timestamptz - interval '1 minute'`,
      [organisationId, idHash, at],
    );
  }

  async delete(organisationId: string, idHash: string, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`DELETE FROM console_sessions WHERE organisation_id = $1 AND id_hash = $2`, [organisationId, idHash]);
  }

  /** Ends every session of a person, on every instance at once: each request looks its session up. */
  async deleteForUser(organisationId: string, userId: string, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`DELETE FROM console_sessions WHERE organisation_id = $1 AND user_id = $2`, [organisationId, userId]);
  }

  /** Across organisations by nature (retention): sessions that began before `startedBefore`. */
  async deleteStarted(startedBefore: Date, batch: number, manager: EntityManager): Promise<number> {
    const [{ removed }]: Array<{ removed: number }> = await this.database.manager(manager).query(
      `WITH removed AS (
         DELETE FROM console_sessions
          WHERE id_hash = ANY (ARRAY(SELECT id_hash FROM console_sessions WHERE created_at < $1 LIMIT $2))
         RETURNING 1
       )
       SELECT count(*)::integer AS removed FROM removed`,
      [startedBefore, batch],
    );
    return removed;
  }

  /** Across organisations by nature: an email is locked whether or not anyone has it. */
  async recordFailedSignIn(email: string, at: Date, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`INSERT INTO console_failed_sign_ins (email, attempted_at) VALUES (lower($1), $2)`, [email, at]);
  }

  /** Across organisations by nature: the latest `count` failed sign-ins at the email since `since`, newest first. */
  async recentFailedSignIns(email: string, since: Date, count: number, manager?: EntityManager): Promise<Date[]> {
    const rows: Array<{ attempted_at: Date }> = await this.database.manager(manager).query(
      `SELECT attempted_at FROM console_failed_sign_ins
        WHERE email = lower($1) AND attempted_at > $2
        ORDER BY attempted_at DESC LIMIT $3`,
      [email, since, count],
    );
    return rows.map((row) => row.attempted_at);
  }

  /** Across organisations by nature: a successful sign-in starts the count again. */
  async clearFailedSignIns(email: string, manager?: EntityManager): Promise<void> {
    await this.database.manager(manager).query(`DELETE FROM console_failed_sign_ins WHERE email = lower($1)`, [email]);
  }

  /** Across organisations by nature (retention). */
  async deleteFailedSignInsBefore(before: Date, batch: number, manager: EntityManager): Promise<number> {
    const [{ removed }]: Array<{ removed: number }> = await this.database.manager(manager).query(
      `WITH removed AS (
         DELETE FROM console_failed_sign_ins
          WHERE ctid = ANY (ARRAY(SELECT ctid FROM console_failed_sign_ins WHERE attempted_at < $1 LIMIT $2))
         RETURNING 1
       )
       SELECT count(*)::integer AS removed FROM removed`,
      [before, batch],
    );
    return removed;
  }
}
