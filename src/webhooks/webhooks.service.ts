import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ConflictError, NotFoundError } from '../common/errors';
import { Page, PaginationQuery } from '../common/pagination';
import { newId } from '../common/uuid';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { toWebhookDeliveryResponse, WebhookDeliveryResponse } from './dto/webhook-delivery.response';
import { toWebhookResponse, WebhookResponse } from './dto/webhook.response';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { deliveryBody } from './webhook-outbox.listener';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookSender } from './webhook-sender';

export const MAX_WEBHOOKS_PER_ORGANISATION = 25;
export const TEST_EVENT = 'webhook.test';

@Injectable()
export class WebhooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly secrets: WebhookSecrets,
    private readonly sender: WebhookSender,
  ) {}

  async list(organisationId: string): Promise<WebhookResponse[]> {
    const endpoints = await this.dataSource.getRepository(WebhookEndpoint).find({
      where: { organisationId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return endpoints.map(toWebhookResponse);
  }

  async create(organisationId: string, input: CreateWebhookDto): Promise<WebhookResponse> {
    return this.dataSource.transaction(async (manager) => {
      // Creations of one organisation queue here, so two at once cannot both take the 25th place.
      // NO KEY UPDATE leaves foreign-key checks of other tables on the organisation unblocked.
      await manager.query(`SELECT 1 FROM organisations WHERE id = $1 FOR NO KEY UPDATE`, [organisationId]);
      const count = await manager.countBy(WebhookEndpoint, { organisationId });
      if (count >= MAX_WEBHOOKS_PER_ORGANISATION) {
        throw new ConflictError(`An organisation can have at most ${MAX_WEBHOOKS_PER_ORGANISATION} webhook endpoints`);
      }
      const id = newId();
      const endpoint = manager.create(WebhookEndpoint, {
        id,
        organisationId,
        url: input.url,
        events: input.events,
        secretSealed: input.secret === undefined || input.secret === null ? null : this.secrets.seal(input.secret, id),
        createdAt: new Date(),
      });
      return toWebhookResponse(await manager.save(endpoint));
    });
  }

  async remove(organisationId: string, id: string): Promise<{ deleted: boolean }> {
    const result = await this.dataSource.getRepository(WebhookEndpoint).delete({ id, organisationId });
    if (!result.affected) throw new NotFoundError('Webhook');
    return { deleted: true };
  }

  async listDeliveries(
    organisationId: string,
    id: string,
    query: PaginationQuery,
  ): Promise<Page<WebhookDeliveryResponse>> {
    await this.findEndpoint(organisationId, id);
    const [deliveries, total] = await this.deliveries.listForEndpoint(organisationId, id, query);
    return Page.of(deliveries.map(toWebhookDeliveryResponse), total, query);
  }

  /** Sends a signed `webhook.test` delivery now, records it like any other, and answers with its outcome. */
  async sendTest(organisationId: string, id: string): Promise<WebhookDeliveryResponse> {
    const endpoint = await this.findEndpoint(organisationId, id);
    const body = deliveryBody(TEST_EVENT, new Date(), { webhookId: endpoint.id, url: endpoint.url });
    const delivery = await this.deliveries.createClaimed(organisationId, endpoint.id, TEST_EVENT, body);
    const result = await this.sender.send({
      deliveryId: delivery.id,
      event: TEST_EVENT,
      url: endpoint.url,
      body,
      secret: this.secrets.signingKey(endpoint.secretSealed, endpoint.id),
    });
    const attemptedAt = new Date();
    await this.deliveries.settle(delivery.id, result, attemptedAt);
    return toWebhookDeliveryResponse({
      ...delivery,
      outcome: result.outcome,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      attemptedAt,
    });
  }

  private async findEndpoint(organisationId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.dataSource.getRepository(WebhookEndpoint).findOneBy({ id, organisationId });
    if (!endpoint) throw new NotFoundError('Webhook');
    return endpoint;
  }
}
