import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ActivityLog } from '../../audit/activity-log';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { Database } from '../../database/database';
import { isUuid, newId } from '../../database/uuid';
import type { Actor } from '../../database/write-context';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/errors';
import { SessionsService } from '../sessions/sessions.service';
import { ConsoleRole, CONSOLE_ROLES, isConsoleRole } from './console-role';
import { ConsoleUser, ConsoleUsersRepository, SignInCandidate } from './console-users.repository';

/** A welcome link is valid this long (docs/api-decisions.md, "People"). */
export const WELCOME_LINK_MS = 72 * 60 * 60 * 1000;

const EMAIL_MAX_LENGTH = 254;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface NewPerson {
  email: string;
  role: string;
}

/** A person with the link that lets them choose a password: shown once, stored only as a hash. */
export interface Welcomed {
  person: ConsoleUser;
  link: string;
}

/** SHA-256 of a welcome token, hex. */
export function welcomeTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * An organisation's people: invitations with welcome links, roles, removal; the last admin of an organisation
 * is never removed or demoted. Every change is in the activity log, and a removal or a role change ends the
 * person's sessions.
 */
@Injectable()
export class PeopleService {
  constructor(
    private readonly users: ConsoleUsersRepository,
    private readonly database: Database,
    private readonly sessions: SessionsService,
    private readonly activity: ActivityLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(organisationId: string): Promise<ConsoleUser[]> {
    return this.users.list(organisationId);
  }

  /** An email taken by anyone of any organisation, in any case, is a conflict. */
  async invite(organisationId: string, person: NewPerson, actor: Actor): Promise<Welcomed> {
    const email = person.email.trim();
    if (!EMAIL.test(email) || email.length > EMAIL_MAX_LENGTH) {
      throw ValidationError.forField('email', 'An email has an @ and at most 254 characters, without spaces');
    }
    const role = checkedRole(person.role);
    const user: ConsoleUser = { id: newId(), organisationId, email, role, createdAt: new Date(), lastSignInAt: null };
    return this.database.transaction(async (manager) => {
      if (!(await this.users.insert(organisationId, user, manager))) {
        throw new ConflictError(`A person with the email ${email} is in the console already`);
      }
      const link = await this.newWelcomeLink(organisationId, user.id, manager);
      await this.activity.record(organisationId, actor, 'person invited', `${email} (${role})`, manager);
      return { person: user, link };
    });
  }

  /** A new welcome link for a person named by email (the command line's `user reset`); the earlier one stops working. */
  async resetLink(email: string, actor: Actor): Promise<Welcomed> {
    const found = await this.findByEmail(email);
    return this.database.transaction(async (manager) => {
      const link = await this.newWelcomeLink(found.organisationId, found.id, manager);
      await this.activity.record(found.organisationId, actor, 'welcome link made', found.email, manager);
      return { person: found, link };
    });
  }

  /** Across organisations: the command line and signing in name a person by email alone. */
  async findByEmail(email: string): Promise<SignInCandidate> {
    const found = await this.users.findByEmail(email.trim());
    if (!found) throw new NotFoundError(`Person "${email}"`);
    return found;
  }

  async changeRole(organisationId: string, userId: string, role: string, actor: Actor): Promise<void> {
    const newRole = checkedRole(role);
    await this.database.transaction(async (manager) => {
      const admins = await this.users.lockAdmins(organisationId, manager);
      const person = await this.person(organisationId, userId, manager);
      if (person.role === newRole) return;
      if (person.role === 'admin' && admins <= 1) {
        throw new ConflictError('The last admin of the organisation keeps the admin role');
      }
      await this.users.setRole(organisationId, person.id, newRole, manager);
      await this.sessions.endAllOf(organisationId, person.id, manager);
      await this.activity.record(
        organisationId,
        actor,
        'role changed',
        `${person.email}: ${person.role} → ${newRole}`,
        manager,
      );
    });
  }

  async remove(organisationId: string, userId: string, actor: Actor): Promise<ConsoleUser> {
    return this.database.transaction(async (manager) => {
      const admins = await this.users.lockAdmins(organisationId, manager);
      const person = await this.person(organisationId, userId, manager);
      if (person.role === 'admin' && admins <= 1) {
        throw new ConflictError('The last admin of the organisation cannot be removed');
      }
      // Their sessions and welcome link go with them.
      await this.users.delete(organisationId, person.id, manager);
      await this.activity.record(organisationId, actor, 'person removed', person.email, manager);
      return person;
    });
  }

  /** Another organisation's person, or no one, is "not found". */
  private async person(organisationId: string, userId: string, manager: EntityManager): Promise<ConsoleUser> {
    const person = isUuid(userId) ? await this.users.findById(organisationId, userId.toLowerCase(), manager) : null;
    if (!person) throw new NotFoundError('Person');
    return person;
  }

  private async newWelcomeLink(organisationId: string, userId: string, manager: EntityManager): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const createdAt = new Date();
    await this.users.replaceWelcomeToken(
      organisationId,
      {
        hash: welcomeTokenHash(token),
        userId,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + WELCOME_LINK_MS),
      },
      manager,
    );
    return `${this.config.publicUrl}/console/welcome/${token}`;
  }
}

function checkedRole(role: string): ConsoleRole {
  if (!isConsoleRole(role)) throw ValidationError.forField('role', `A role is ${CONSOLE_ROLES.join(' or ')}`);
  return role;
}
