import { randomBytes } from 'node:crypto';
import { Get, Param, Post, Query } from '@nestjs/common';
import { validateItem } from '../../bulk/bulk';
import { ParseIdPipe } from '../../database/uuid';
import { PageFields, PaginationQuery } from '../../pagination/pagination';
import { CreateWebhookDto } from '../../webhooks/dto/create-webhook.dto';
import { WebhooksService } from '../../webhooks/webhooks.service';
import { ConsoleController } from '../http/console-controller.decorator';
import { requireAdmin } from '../http/console-errors';
import { Change, ConsoleChange, ConsolePage, Page } from '../http/console-request';
import { Html } from '../http/html';
import { changeThenSeeOther, SeeOther } from '../http/page-answer';
import { pageNumber } from '../http/query';
import { deleteEndpointPage, deliveryPage, endpointPage, newEndpointPage, webhooksPage } from './webhooks.page';

const WEBHOOKS = '/console/webhooks';

/** Deliveries on one page of an endpoint's page. */
export const DELIVERIES_PAGE_SIZE = 50;

/** How long the secret "Rotate secret" makes is, in random bytes (base64url: 43 characters). */
const ROTATED_SECRET_BYTES = 32;

/** A rotated-out secret still signs webhook-signature this long, as POST /webhooks/{id}/rotate-secret's default. */
const ROTATION_OVERLAP_SECONDS = 86_400;

const EndpointId = () => Param('id', new ParseIdPipe('Webhook'));
const DeliveryId = () => Param('deliveryId', new ParseIdPipe('Webhook delivery'));

/**
 * The Webhooks pages: the endpoints, one endpoint with its deliveries, one delivery's detail. Everything goes
 * through WebhooksService, as the API's routes do (the same validation, the sender's address checks, secrets
 * sealed and never shown); each change is in the activity log.
 */
@ConsoleController('webhooks')
export class WebhooksConsoleController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  async list(@Page() { organisationId, viewer, flash }: ConsolePage): Promise<Html> {
    return webhooksPage(viewer, await this.webhooks.list(organisationId), flash);
  }

  @Get('new')
  newEndpoint(@Page() { viewer, flash }: ConsolePage): Html {
    requireAdmin(viewer);
    return newEndpointPage(viewer, flash);
  }

  @Post()
  async add(@Change() { organisationId, form, write }: ConsoleChange): Promise<SeeOther> {
    return changeThenSeeOther(
      WEBHOOKS,
      async () => {
        const secret = form.text('secret');
        // The API's body, checked by the API's rules.
        const input = validateItem(CreateWebhookDto, {
          url: form.text('url'),
          events: form.all('events'),
          ...(secret === '' ? {} : { secret }),
        });
        const endpoint = await this.webhooks.create(organisationId, input, write);
        return { notice: `Added ${endpoint.url}. Open it to send a test event.` };
      },
      `${WEBHOOKS}/new`,
    );
  }

  @Get(':id')
  async endpoint(
    @Page() { organisationId, viewer, flash }: ConsolePage,
    @EndpointId() id: string,
    @Query('failed') failed: unknown,
    @Query('page') page: unknown,
  ): Promise<Html> {
    const endpoint = await this.webhooks.get(organisationId, id);
    const failedOnly = failed === 'on';
    const query = Object.assign(new PaginationQuery(), { page: pageNumber(page), limit: DELIVERIES_PAGE_SIZE });
    const deliveries = await this.webhooks.listDeliveries(organisationId, id, query, { failedOnly });
    return endpointPage(
      viewer,
      endpoint,
      { items: deliveries.items, meta: deliveries.meta as PageFields, failedOnly },
      flash,
    );
  }

  @Post(':id/test')
  async sendTest(@Change() { organisationId, write }: ConsoleChange, @EndpointId() id: string): Promise<SeeOther> {
    return changeThenSeeOther(`${WEBHOOKS}/${id}`, async () => {
      const delivery = await this.webhooks.sendTest(organisationId, id, write);
      const answer = delivery.statusCode === null ? (delivery.error ?? 'no answer') : `HTTP ${delivery.statusCode}`;
      return { notice: `Test event sent: ${delivery.status} (${answer}).` };
    });
  }

  @Post(':id/rotate-secret')
  async rotateSecret(@Change() { organisationId, write }: ConsoleChange, @EndpointId() id: string): Promise<SeeOther> {
    return changeThenSeeOther(`${WEBHOOKS}/${id}`, async () => {
      const secret = randomBytes(ROTATED_SECRET_BYTES).toString('base64url');
      const overlapSeconds = ROTATION_OVERLAP_SECONDS;
      await this.webhooks.rotateSecret(organisationId, id, { secret, overlapSeconds }, write);
      return {
        notice: 'Secret rotated. For 24 hours webhook-signature also carries a signature with the previous secret.',
        reveal: { label: 'New secret', value: secret },
      };
    });
  }

  @Get(':id/delete')
  async confirmDelete(@Page() { organisationId, viewer }: ConsolePage, @EndpointId() id: string): Promise<Html> {
    requireAdmin(viewer);
    return deleteEndpointPage(viewer, await this.webhooks.get(organisationId, id));
  }

  @Post(':id/delete')
  async remove(@Change() { organisationId, write }: ConsoleChange, @EndpointId() id: string): Promise<SeeOther> {
    return changeThenSeeOther(WEBHOOKS, async () => {
      const { url } = await this.webhooks.get(organisationId, id);
      await this.webhooks.remove(organisationId, id, write);
      return { notice: `Deleted ${url}.` };
    });
  }

  @Get(':id/deliveries/:deliveryId')
  async delivery(
    @Page() { organisationId, viewer, flash }: ConsolePage,
    @EndpointId() id: string,
    @DeliveryId() deliveryId: string,
  ): Promise<Html> {
    const endpoint = await this.webhooks.get(organisationId, id);
    const delivery = await this.webhooks.getDelivery(organisationId, id, deliveryId);
    return deliveryPage(viewer, endpoint, delivery, flash);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  async redeliver(
    @Change() { organisationId, write }: ConsoleChange,
    @EndpointId() id: string,
    @DeliveryId() deliveryId: string,
  ): Promise<SeeOther> {
    return changeThenSeeOther(`${WEBHOOKS}/${id}`, async () => {
      await this.webhooks.redeliver(organisationId, id, deliveryId, write);
      return { notice: 'Redelivery queued: it shows at the top of the deliveries, pending until sent.' };
    });
  }
}
