import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ActivityLog } from '../audit/activity-log';
import { Database } from '../database/database';
import { retentionWrite, WriteContext } from '../database/write-context';
import { EmployeesRepository } from '../employees/employees.repository';
import { EmployeesService } from '../employees/employees.service';
import { ValidationError } from '../errors/errors';
import { DomainEvents } from '../events/domain-events';
import { EMPLOYEE_EVENTS_BATCH, EventCursor, EventsRepository } from '../events/events.repository';
import { EventResponse, toEventResponse } from '../events/feed/dto/event.response';
import { IdempotencyKeysRepository } from '../idempotency/idempotency-keys.repository';
import { PositionsRepository } from '../positions/positions.repository';
import { RatingRecord, RatingResponse, toRatingResponse } from '../ratings/dto/rating.response';
import { RatingsRepository } from '../ratings/ratings.repository';
import { Preconditions } from '../versions/preconditions';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository';
import {
  ErasedEmployeeResponse,
  PersonalDataResponse,
  RecipientResponse,
  toPositionsResponse,
  toRecipientResponse,
} from './dto/personal-data.response';

/** How many of an employee's ratings the export reads per query. */
const RATINGS_BATCH = 1_000;
const DAY_MS = 86_400_000;

/**
 * Erasure and the personal-data export (docs/api-decisions.md, "Data protection"). Each table's redaction is a method
 * of the repository of the feature that owns it; this service runs them in one transaction, or reads them
 * for the export. Its own folder because the features it calls (ratings/, positions/) import employees/.
 */
@Injectable()
export class PrivacyService {
  constructor(
    private readonly database: Database,
    private readonly employees: EmployeesRepository,
    private readonly employeesService: EmployeesService,
    private readonly ratings: RatingsRepository,
    private readonly positions: PositionsRepository,
    private readonly events: EventsRepository,
    private readonly domainEvents: DomainEvents,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly idempotencyKeys: IdempotencyKeysRepository,
    private readonly activity: ActivityLog,
  ) {}

  /**
   * Removes the employee's personal data for good, in one transaction: their ratings and skills, their position
   * links, their row (404 from now on), and the redaction of every event and kept response naming them; then
   * `employee.erased` in the feed. The employee's row is locked first, so a concurrent change to them either
   * commits before (and is redacted) or finds them gone. With `confirmedBy` (the console's typed confirmation),
   * only when it is the employee's personnel number, checked under that lock, as is an If-Match. The activity log
   * names the employee by id only: it is kept 400 days, and must not keep what was just erased.
   */
  async erase(
    organisationId: string,
    id: string,
    write: WriteContext,
    confirmedBy?: { personnelNumber: string },
    preconditions: Preconditions = {},
  ): Promise<ErasedEmployeeResponse> {
    return this.database.transaction(async (manager) => {
      const employee = await this.employees.findForUpdate(organisationId, id, manager);
      if (confirmedBy && confirmedBy.personnelNumber.trim() !== employee.personnelNumber) {
        throw ValidationError.forField(
          'personnelNumber',
          'That is not the employee’s personnel number: nothing was erased.',
        );
      }
      // A POST: REQUIRE_IF_MATCH does not apply, only a header the request sent.
      if (preconditions.ifMatch !== undefined) {
        await this.employeesService.checkVersion(organisationId, employee, preconditions, manager);
      }
      const erasedAt = new Date();
      await this.ratings.deleteAllOfEmployee(organisationId, id, manager);
      await this.positions.unlinkEmployee(organisationId, id, manager);
      await this.employees.erase(organisationId, id, manager);
      await this.events.redactEmployee(organisationId, id, manager);
      await this.idempotencyKeys.redactEmployee(organisationId, id, manager);
      const erased = { id, erasedAt: erasedAt.toISOString() };
      // The erasure is the employee's last change: its history lists it after the (redacted) others.
      await this.domainEvents.publishMany(manager, organisationId, [
        { name: 'employee.erased', data: erased, occurredAt: erasedAt, resourceVersion: employee.version + 1 },
      ]);
      await this.activity.record(organisationId, write.origin.actor, 'employee erased', id, manager);
      return erased;
    }, write);
  }

  /**
   * The organisation's employees who left more than `days` days before `now`, each erased in a transaction of
   * its own unless `dryRun`: answers their ids (those erased, or those a run would erase).
   */
  async eraseLeavers(
    organisationId: string,
    days: number,
    now: Date,
    dryRun: boolean,
    write: WriteContext,
  ): Promise<string[]> {
    const due = await this.employees.leftBefore(organisationId, new Date(now.getTime() - days * DAY_MS));
    if (!dryRun) for (const id of due) await this.erase(organisationId, id, write);
    return due;
  }

  /**
   * The retention job's share of the leavers: up to `limit` employees of any organisation who left more than
   * `days` days before `now`, erased in the job's transaction with the job as actor. Answers how many.
   */
  async eraseDueLeavers(days: number, now: Date, limit: number, manager: EntityManager): Promise<number> {
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    const due = await this.employees.leftBeforeInEveryOrganisation(cutoff, limit, manager);
    for (const { organisationId, id } of due) await this.erase(organisationId, id, retentionWrite(manager));
    return due.length;
  }

  /**
   * Everything the service holds about the employee (active or deactivated), for a subject-access request.
   * Ratings and events are read page by page (keyset), so thousands of them never make one query's answer.
   */
  async personalData(organisationId: string, id: string): Promise<PersonalDataResponse> {
    const employee = await this.employeesService.get(organisationId, id);
    const [ratings, positions, named] = await Promise.all([
      this.allRatings(organisationId, id),
      this.positions.linksOfEmployee(organisationId, id),
      this.eventsAndRecipients(organisationId, id),
    ]);
    return { employee, ratings, positions: toPositionsResponse(positions), ...named };
  }

  /** The export a person downloads (the console): as personalData, and recorded in the activity log. */
  async exportPersonalData(organisationId: string, id: string, write: WriteContext): Promise<PersonalDataResponse> {
    const data = await this.personalData(organisationId, id);
    await this.activity.record(organisationId, write.origin.actor, 'personal data exported', id, write.transaction);
    return data;
  }

  private async allRatings(organisationId: string, employeeId: string): Promise<RatingResponse[]> {
    const ratings: RatingResponse[] = [];
    let after: RatingRecord | null = null;
    for (;;) {
      const page = await this.ratings.findOldestFirst(organisationId, employeeId, after, RATINGS_BATCH);
      ratings.push(...page.map(toRatingResponse));
      if (page.length < RATINGS_BATCH) return ratings;
      after = page[page.length - 1];
    }
  }

  private async eventsAndRecipients(organisationId: string, employeeId: string) {
    const events: EventResponse[] = [];
    const recipients: RecipientResponse[] = [];
    let after: EventCursor | null = null;
    for (;;) {
      const page = await this.events.listNamingEmployee(organisationId, employeeId, after, EMPLOYEE_EVENTS_BATCH);
      events.push(...page.map((row) => toEventResponse(row.id, row.body)));
      const sent = await this.deliveries.recipientsOfEvents(
        organisationId,
        page.map((row) => row.id),
      );
      recipients.push(...sent.map(toRecipientResponse));
      if (page.length < EMPLOYEE_EVENTS_BATCH) return { events, recipients };
      const last = page[page.length - 1];
      after = { txid: last.txid, id: last.id };
    }
  }
}
