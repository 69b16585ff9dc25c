import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { ActivityLog } from '../../audit/activity-log';
import { Database } from '../../database/database';
import type { Actor } from '../../database/write-context';
import { NotFoundError } from '../../errors/errors';
import { ConsoleRequest } from '../http/console-request';
import { consoleActor } from '../http/console-write';
import { ConsoleSealer } from '../http/sealer';
import { ConsoleUsersRepository, SignInCandidate } from '../people/console-users.repository';
import { welcomeTokenHash } from '../people/people.service';
import { SsoService } from '../sso/sso.service';
import { checkPasswordLength, decoyPasswordHash, hashPassword, verifyPassword } from './password';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { forgetWelcomeToken, keepWelcomeToken, keptWelcomeToken } from './welcome-cookie';

/** Failed sign-ins for an email within this window lock it (docs/api-decisions.md, "Signing in"). */
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
/** How many failed sign-ins within the window lock an email. */
export const LOCKOUT_FAILURES = 5;
/** How long a lock lasts, from the failure that set it. */
export const LOCKOUT_MS = 15 * 60_000;

export type SignInOutcome =
  | { kind: 'signed-in' }
  /** A wrong email or password, or a locked email: the page says the same for each. */
  | { kind: 'refused' }
  /** The person's organisation signs in at its provider: their password does not count. */
  | { kind: 'single-sign-on'; organisationId: string };

/**
 * Signing in with a password (with the lockout), through single sign-on, with a welcome link, and out. Each
 * goes into the activity log of the person's organisation; an unknown email has no organisation, so only the
 * lockout counts it.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly users: ConsoleUsersRepository,
    private readonly sessionRows: SessionsRepository,
    private readonly sessions: SessionsService,
    private readonly sso: SsoService,
    private readonly activity: ActivityLog,
    private readonly database: Database,
    private readonly sealer: ConsoleSealer,
  ) {}

  async withPassword(
    email: string,
    password: string,
    request: ConsoleRequest,
    response: Response,
  ): Promise<SignInOutcome> {
    const trimmed = email.trim();
    const now = new Date();
    const person = trimmed === '' ? null : await this.users.findByEmail(trimmed);
    if (person && (await this.sso.isConfigured(person.organisationId))) {
      return { kind: 'single-sign-on', organisationId: person.organisationId };
    }
    const locked = await this.isLocked(trimmed, now);
    // As long for an unknown email, a person without a password or a locked email as for a wrong password.
    const hash = !locked && person?.passwordHash ? person.passwordHash : await decoyPasswordHash();
    const matches = await verifyPassword(password, hash);
    if (locked || !matches || !person?.passwordHash) {
      if (!locked && trimmed !== '') await this.sessionRows.recordFailedSignIn(trimmed, now);
      if (person) {
        await this.activity.record(
          person.organisationId,
          personActor(person, request),
          'failed sign-in',
          locked ? 'locked after repeated failures' : null,
        );
      }
      return { kind: 'refused' };
    }
    await this.sessionRows.clearFailedSignIns(trimmed);
    await this.start(person, 'password', request, response);
    return { kind: 'signed-in' };
  }

  /** A person the organisation's provider vouched for (SsoService.complete). */
  async withSingleSignOn(person: SignInCandidate, request: ConsoleRequest, response: Response): Promise<void> {
    await this.start(person, 'single sign-on', request, response);
  }

  /** The person a welcome link is for, while it is unspent and unexpired; else 404. */
  async welcomed(token: string): Promise<SignInCandidate> {
    const person = await this.users.findByWelcomeToken(welcomeTokenHash(token), new Date());
    if (!person) throw new NotFoundError('Welcome link');
    return person;
  }

  /** A welcome link's first visit: its token goes into a sealed cookie (welcome-cookie.ts), the link stays unspent. */
  keepWelcomeToken(token: string, request: ConsoleRequest, response: Response): void {
    keepWelcomeToken(this.sealer, token, request, response);
  }

  /** The welcome link's token the request's cookie keeps, while fresh. */
  keptWelcomeToken(request: ConsoleRequest): string | undefined {
    return keptWelcomeToken(this.sealer, request);
  }

  /**
   * Spends a welcome link: the person's password becomes `password`, their other sessions end, and they are
   * signed in; the cookie that kept the token goes. A link is single use: two tabs submitting at once get one
   * password and one 404.
   */
  async choosePassword(token: string, password: string, request: ConsoleRequest, response: Response): Promise<void> {
    const person = await this.welcomed(token);
    checkPasswordLength(password);
    const hash = await hashPassword(password);
    await this.database.transaction(async (manager) => {
      if (!(await this.users.deleteWelcomeToken(person.organisationId, welcomeTokenHash(token), manager))) {
        throw new NotFoundError('Welcome link');
      }
      await this.users.setPasswordHash(person.organisationId, person.id, hash, manager);
      await this.sessions.endAllOf(person.organisationId, person.id, manager);
      await this.activity.record(person.organisationId, personActor(person, request), 'password chosen', null, manager);
    });
    await this.sessionRows.clearFailedSignIns(person.email);
    forgetWelcomeToken(request, response);
    await this.start(person, 'welcome link', request, response);
  }

  async signOut(request: ConsoleRequest, response: Response): Promise<void> {
    const viewer = request.viewer!;
    await this.sessions.end(viewer, response, request.viaHttps === true);
    await this.activity.record(viewer.organisationId, consoleActor(request), 'sign-out', null);
  }

  private async start(
    person: SignInCandidate,
    how: 'password' | 'single sign-on' | 'welcome link',
    request: ConsoleRequest,
    response: Response,
  ): Promise<void> {
    await this.database.transaction(async (manager) => {
      await this.users.recordSignIn(person.organisationId, person.id, new Date(), manager);
      await this.sessions.start(
        { organisationId: person.organisationId, userId: person.id },
        response,
        request.viaHttps === true,
        manager,
      );
      await this.activity.record(
        person.organisationId,
        personActor(person, request),
        'sign-in',
        `with ${how}`,
        manager,
      );
    });
  }

  /**
   * Locked: the latest LOCKOUT_FAILURES failures fell within LOCKOUT_WINDOW_MS, and the last of them less than
   * LOCKOUT_MS ago. Attempts while locked are not counted, so the lock ends LOCKOUT_MS after the failure that set it.
   */
  private async isLocked(email: string, now: Date): Promise<boolean> {
    if (email === '') return false;
    const since = new Date(now.getTime() - LOCKOUT_WINDOW_MS - LOCKOUT_MS);
    const failures = await this.sessionRows.recentFailedSignIns(email, since, LOCKOUT_FAILURES);
    if (failures.length < LOCKOUT_FAILURES) return false;
    const [latest] = failures;
    const earliest = failures[failures.length - 1];
    return latest.getTime() - earliest.getTime() <= LOCKOUT_WINDOW_MS && now.getTime() - latest.getTime() < LOCKOUT_MS;
  }
}

/** A person of the console before their session exists (signing in, choosing a password), as the actor. */
function personActor(person: SignInCandidate, request: ConsoleRequest): Actor {
  return { type: 'console', id: person.id, email: person.email, clientAddress: request.clientAddress ?? null };
}
