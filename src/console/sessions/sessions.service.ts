import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { BookkeepingWrites } from '../../database/bookkeeping-writes';
import { ConsoleRequest, ConsoleViewer } from '../http/console-request';
import { clearCookie, readCookie, setCookie } from '../http/cookies';
import { SessionsRepository } from './sessions.repository';

export const SESSION_COOKIE = 'console_session';

/** A session ends this long after sign-in, however busy (docs/api-decisions.md, "Sessions"). */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** A session's last activity is written at most this often; the idle timeout is as precise. */
const ACTIVITY_PRECISION_MS = 60_000;

/** SHA-256 of a session id, hex: what the database keeps, so a copy of it signs no one in. */
export function sessionHash(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * Console sessions, kept in the database and looked up on every request, so that signing out, a removal or a
 * role change ends them on every instance at once. The cookie holds 32 random bytes; a new id at every sign-in.
 */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);

  constructor(
    private readonly sessions: SessionsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly bookkeeping: BookkeepingWrites,
  ) {}

  /** Starts a session for the person and sets its cookie. */
  async start(
    person: { organisationId: string; userId: string },
    response: Response,
    https: boolean,
    manager?: EntityManager,
  ): Promise<void> {
    const id = randomBytes(32).toString('base64url');
    await this.sessions.insert(
      person.organisationId,
      { idHash: sessionHash(id), userId: person.userId, createdAt: new Date() },
      manager,
    );
    setCookie(response, SESSION_COOKIE, id, { secure: https, maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 });
  }

  /** The signed-in person of the request, or null when its cookie names no live session. */
  async resolve(request: ConsoleRequest): Promise<ConsoleViewer | null> {
    const id = readCookie(request, SESSION_COOKIE);
    if (!id) return null;
    const hash = sessionHash(id);
    const now = Date.now();
    const session = await this.sessions.findLive(
      hash,
      new Date(now - this.config.consoleSessionIdleMinutes * 60_000),
      new Date(now - SESSION_ABSOLUTE_MS),
    );
    if (!session) return null;
    if (now - session.lastActivityAt.getTime() >= ACTIVITY_PRECISION_MS) this.touch(session.organisationId, hash, now);
    return {
      sessionHash: hash,
      userId: session.userId,
      email: session.email,
      role: session.role,
      organisationId: session.organisationId,
      organisationName: session.organisationName,
    };
  }

  /** Ends the request's session and clears its cookie. */
  async end(viewer: ConsoleViewer, response: Response, https: boolean): Promise<void> {
    await this.sessions.delete(viewer.organisationId, viewer.sessionHash);
    clearCookie(response, SESSION_COOKIE, { secure: https });
  }

  /** Ends every session of a person (removed, or given another role). */
  async endAllOf(organisationId: string, userId: string, manager?: EntityManager): Promise<void> {
    await this.sessions.deleteForUser(organisationId, userId, manager);
  }

  /**
   * Bookkeeping, unawaited: the request goes on whether the write lands or fails. While another session's write
   * is in flight this one is dropped; the session's next request writes it.
   */
  private touch(organisationId: string, hash: string, now: number): void {
    const write = (manager: EntityManager) => this.sessions.touch(organisationId, hash, new Date(now), manager);
    this.bookkeeping.run('console session activity', write).catch((error: unknown) => {
      this.logger.debug(`A session's last activity was not written: ${String(error)}`);
    });
  }
}
