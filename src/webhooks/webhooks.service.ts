import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ActivityLog } from '../audit/activity-log';
import { Database } from '../database/database';
import { newId } from '../database/uuid';
import { WriteContext } from '../database/write-context';
import { ConflictError, NotFoundError } from '../errors/errors';
import { mapConstraintErrors } from '../errors/postgres-errors';
import { EventsRepository, WEBHOOK_TEST_EVENT } from '../events/events.repository';
import { DeletedResponse } from '../http/deleted.response';
import { ListCursors, ListIdentity } from '../pagination/cursor';
import { Page, PaginationQuery } from '../pagination/pagination';
import { parseIsoDateTime } from '../validation/iso-date-time';
import { Preconditions } from '../versions/preconditions';
import { ResourceVersions } from '../versions/resource-versions';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { RecoverResponse } from './dto/recover.dto';
import { RotateSecretDto } from './dto/rotate-secret.dto';
import { toWebhookDeliveryResponse, WebhookDeliveryResponse } from './dto/webhook-delivery.response';
import { toWebhookResponse, WebhookResponse } from './dto/webhook.response';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookCommitWatcher } from './webhook-commit-watcher';
import { DeliveryFilter, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookSender } from './webhook-sender';

export const MAX_WEBHOOKS_PER_ORGANISATION = 25;

/** A delivery as its detail shows it: the log entry, the exact body sent, the start of the answer's body. */
export interface WebhookDeliveryDetail extends WebhookDeliveryResponse {
  body: Buffer;
  /** The first 1 KiB of the answer's body; null when no answer came (yet). */
  responseExcerpt: Buffer | null;
}

@Injectable()
export class WebhooksService {
  constructor(
    private readonly database: Database,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: EventsRepository,
    private readonly secrets: WebhookSecrets,
    private readonly sender: WebhookSender,
    private readonly commitWatcher: WebhookCommitWatcher,
    private readonly cursors: ListCursors,
    private readonly activity: ActivityLog,
    private readonly versions: ResourceVersions,
  ) {}

  async list(organisationId: string): Promise<WebhookResponse[]> {
    return (await this.endpoints.list(organisationId)).map(toWebhookResponse);
  }

  async create(organisationId: string, input: CreateWebhookDto, write: WriteContext): Promise<WebhookResponse> {
    return this.database.transaction(async (manager) => {
      await this.endpoints.lockForCreation(organisationId, manager);
      if ((await this.endpoints.count(organisationId, manager)) >= MAX_WEBHOOKS_PER_ORGANISATION) {
        throw new ConflictError(`An organisation can have at most ${MAX_WEBHOOKS_PER_ORGANISATION} webhook endpoints`);
      }
      const id = newId();
      const endpoint = await this.endpoints.insert(
        organisationId,
        {
          id,
          url: input.url,
          events: input.events,
          secretSealed:
            input.secret === undefined || input.secret === null ? null : this.secrets.seal(input.secret, id),
          createdAt: new Date(),
        },
        manager,
      );
      await this.activity.record(organisationId, write.origin.actor, 'endpoint added', endpoint.url, manager);
      return toWebhookResponse(endpoint);
    }, write);
  }

  /**
   * With `preconditions` (DELETE /webhooks/{id}; the console sends none), If-Match and REQUIRE_IF_MATCH are checked
   * under the endpoint's lock first. No event records an endpoint's changes, so a 412 names no field.
   */
  async remove(
    organisationId: string,
    id: string,
    write: WriteContext,
    preconditions?: Preconditions,
  ): Promise<DeletedResponse> {
    return this.database.transaction(async (manager) => {
      if (preconditions) {
        const endpoint = await this.endpoints.findForUpdate(organisationId, id, manager);
        if (!endpoint) throw new NotFoundError('Webhook');
        const representation = toWebhookResponse(endpoint);
        const check = { resource: 'Webhook', current: endpoint.version, preconditions, representation };
        await this.versions.check(organisationId, id, check, manager);
      }
      const url = await this.endpoints.delete(organisationId, id, manager);
      if (url === null) throw new NotFoundError('Webhook');
      await this.activity.record(organisationId, write.origin.actor, 'endpoint deleted', url, manager);
      return { deleted: true };
    }, write);
  }

  /** One endpoint, never its secret. */
  async get(organisationId: string, id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.findEndpoint(organisationId, id));
  }

  /** An endpoint's deliveries, newest first; `filter.failedOnly` keeps the failed and refused ones (the console). */
  async listDeliveries(
    organisationId: string,
    id: string,
    query: PaginationQuery,
    filter: DeliveryFilter = {},
  ): Promise<Page<WebhookDeliveryResponse>> {
    const list: ListIdentity = {
      name: filter.failedOnly ? 'webhook-deliveries-failed' : 'webhook-deliveries',
      organisationId,
      pathIds: [id],
    };
    const window = this.cursors.window(list, query);
    await this.findEndpoint(organisationId, id);
    const read = await this.deliveries.listForEndpoint(organisationId, id, window, filter);
    return this.cursors.page(list, query, read, toWebhookDeliveryResponse);
  }

  /** One delivery of the endpoint: its outcome, the exact body it sends and the first 1 KiB of the answer. */
  async getDelivery(organisationId: string, id: string, deliveryId: string): Promise<WebhookDeliveryDetail> {
    const delivery = await this.deliveries.findWithBody(organisationId, id, deliveryId);
    if (!delivery) throw new NotFoundError('Webhook delivery');
    return { ...toWebhookDeliveryResponse(delivery), body: delivery.body, responseExcerpt: delivery.responseExcerpt };
  }

  /**
   * Sends a signed `webhook.test` delivery now, records it like any other, and answers with its outcome. The send
   * waits for the receiver outside any transaction, so the activity log records it after its outcome.
   */
  async sendTest(organisationId: string, id: string, write: WriteContext): Promise<WebhookDeliveryResponse> {
    const endpoint = await this.findEndpoint(organisationId, id, write.transaction);
    const { event, delivery } = await this.database.transaction(async (manager) => {
      const data = { webhookId: endpoint.id, url: endpoint.url };
      const recorded = await this.events.record(
        organisationId,
        { name: WEBHOOK_TEST_EVENT, occurredAt: new Date(), data, employeeId: null, ...write.origin },
        manager,
      );
      return {
        event: recorded,
        delivery: await this.deliveries.insertClaimed(organisationId, endpoint.id, recorded, manager),
      };
    }, write);
    const result = await this.sender.send({
      deliveryId: delivery.id,
      eventId: event.id,
      event: WEBHOOK_TEST_EVENT,
      url: endpoint.url,
      body: event.body,
      traceparent: write.origin.traceparent,
      secrets: this.secrets.signingKeys(endpoint.id, endpoint, new Date()),
    });
    const attemptedAt = new Date();
    await this.database.transaction(async (manager) => {
      await this.deliveries.settleMany([{ id: delivery.id, result, at: attemptedAt }], manager);
      await this.activity.record(organisationId, write.origin.actor, 'test event', endpoint.url, manager);
    }, write);
    return toWebhookDeliveryResponse({
      ...delivery,
      outcome: result.outcome,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      attemptedAt,
    });
  }

  /** Queues the event of one of the endpoint's deliveries again, whatever that delivery's outcome. */
  async redeliver(
    organisationId: string,
    id: string,
    deliveryId: string,
    write: WriteContext,
  ): Promise<WebhookDeliveryResponse> {
    const delivery = await mapConstraintErrors(
      this.database.transaction(async (manager) => {
        const queued = await this.deliveries.redeliver(organisationId, id, deliveryId, new Date(), manager);
        if (!queued) return null;
        this.commitWatcher.watch(manager);
        const endpoint = await this.findEndpoint(organisationId, id, manager);
        await this.activity.record(
          organisationId,
          write.origin.actor,
          'redelivery',
          `${endpoint.url} (${deliveryId})`,
          manager,
        );
        return queued;
      }, write),
      // Retention removed the event between the read and the insert: it is gone, like the delivery.
      { foreignKey: () => new NotFoundError('Webhook delivery') },
    );
    if (!delivery) throw new NotFoundError('Webhook delivery');
    return toWebhookDeliveryResponse(delivery);
  }

  /** Queues one redelivery of every event whose latest delivery to the endpoint since `since` failed. */
  async recover(organisationId: string, id: string, since: string, write: WriteContext): Promise<RecoverResponse> {
    return this.database.transaction(async (manager) => {
      // Holding the endpoint queues concurrent recoveries of it: the second sees the first's redeliveries.
      if (!(await this.endpoints.findForUpdate(organisationId, id, manager))) throw new NotFoundError('Webhook');
      const queued = await this.deliveries.redeliverFailed(
        organisationId,
        id,
        parseIsoDateTime(since)!,
        new Date(),
        manager,
      );
      if (queued > 0) this.commitWatcher.watch(manager);
      return { queued };
    }, write);
  }

  /**
   * Replaces the endpoint's secret. With an overlap, the previous one (sealed as it was) also signs
   * webhook-signature until the overlap ends; with none, it is erased at once.
   */
  async rotateSecret(
    organisationId: string,
    id: string,
    input: RotateSecretDto,
    write: WriteContext,
  ): Promise<WebhookResponse> {
    const previousUntil = input.overlapSeconds > 0 ? new Date(Date.now() + input.overlapSeconds * 1000) : null;
    return this.database.transaction(async (manager) => {
      const endpoint = await this.endpoints.rotateSecret(
        organisationId,
        id,
        this.secrets.seal(input.secret, id),
        previousUntil,
        manager,
      );
      if (!endpoint) throw new NotFoundError('Webhook');
      await this.activity.record(organisationId, write.origin.actor, 'secret rotated', endpoint.url, manager);
      return toWebhookResponse(endpoint);
    }, write);
  }

  private async findEndpoint(organisationId: string, id: string, manager?: EntityManager): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findById(organisationId, id, manager);
    if (!endpoint) throw new NotFoundError('Webhook');
    return endpoint;
  }
}
