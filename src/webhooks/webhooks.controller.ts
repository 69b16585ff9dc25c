import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { Write } from '../auth/write.decorator';
import { ParseIdPipe } from '../database/uuid';
import { WriteContext } from '../database/write-context';
import { DeletedResponse } from '../http/deleted.response';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import { ApiEnvelope, ApiErrors } from '../openapi/api-envelope.decorators';
import { PaginationQuery } from '../pagination/pagination';
import { ApiPreconditions, Preconditions, WritePreconditions } from '../versions/preconditions';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { RecoverDto, RecoverResponse } from './dto/recover.dto';
import { RotateSecretDto } from './dto/rotate-secret.dto';
import { WebhookDeliveryResponse } from './dto/webhook-delivery.response';
import { WebhookResponse } from './dto/webhook.response';
import { WebhooksService } from './webhooks.service';

const WebhookId = () => Param('id', new ParseIdPipe('Webhook'));
const DeliveryId = () => Param('deliveryId', new ParseIdPipe('Webhook delivery'));

@ApiTags('Webhooks')
@RequiresScope('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({ summary: "The organisation's webhook endpoints, oldest first (not paginated)" })
  @ApiEnvelope(WebhookResponse, { isArray: true })
  @ApiErrors()
  list(@OrgId() organisationId: string) {
    return this.webhooks.list(organisationId);
  }

  @Idempotent()
  @Post()
  @ApiOperation({ summary: 'Registers an endpoint (at most 25 per organisation)' })
  @ApiEnvelope(WebhookResponse, { status: HttpStatus.CREATED })
  @ApiErrors(400, 409)
  create(@OrgId() organisationId: string, @Body() body: CreateWebhookDto, @Write() write: WriteContext) {
    return this.webhooks.create(organisationId, body, write);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes an endpoint; its undelivered events are dropped' })
  @ApiEnvelope(DeletedResponse)
  @ApiPreconditions()
  @ApiErrors(404, 412, 428)
  remove(
    @OrgId() organisationId: string,
    @WebhookId() id: string,
    @Write() write: WriteContext,
    @WritePreconditions() preconditions: Preconditions,
  ): Promise<DeletedResponse> {
    return this.webhooks.remove(organisationId, id, write, preconditions);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "An endpoint's delivery log, newest first (extension)" })
  @ApiEnvelope(WebhookDeliveryResponse, { paginated: true })
  @ApiErrors(400, 404)
  deliveries(@OrgId() organisationId: string, @WebhookId() id: string, @Query() query: PaginationQuery) {
    return this.webhooks.listDeliveries(organisationId, id, query);
  }

  @Idempotent()
  @Post(':id/test')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Sends a signed webhook.test delivery now and answers with its outcome (extension)',
    description:
      'Body sent: {"event":"webhook.test","timestamp":…,"data":{"webhookId":…,"url":…}}, signed like every delivery.',
  })
  @ApiEnvelope(WebhookDeliveryResponse)
  @ApiErrors(404)
  test(@OrgId() organisationId: string, @WebhookId() id: string, @Write() write: WriteContext) {
    return this.webhooks.sendTest(organisationId, id, write);
  }

  @Idempotent()
  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    summary: 'Queues one delivery again, whatever its outcome (extension)',
    description:
      "Sends the original's exact body with the same webhook-id and a new X-Service-Delivery, through the same " +
      'dispatcher as first deliveries. Answers with the new log entry, pending.',
  })
  @ApiEnvelope(WebhookDeliveryResponse, { status: HttpStatus.ACCEPTED })
  @ApiErrors(404)
  redeliver(
    @OrgId() organisationId: string,
    @WebhookId() id: string,
    @DeliveryId() deliveryId: string,
    @Write() write: WriteContext,
  ) {
    return this.webhooks.redeliver(organisationId, id, deliveryId, write);
  }

  @Idempotent()
  @Post(':id/recover')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    summary: 'Queues a redelivery of every event whose latest delivery since a time failed (extension)',
  })
  @ApiEnvelope(RecoverResponse, { status: HttpStatus.ACCEPTED })
  @ApiErrors(400, 404)
  recover(
    @OrgId() organisationId: string,
    @WebhookId() id: string,
    @Body() body: RecoverDto,
    @Write() write: WriteContext,
  ) {
    return this.webhooks.recover(organisationId, id, body.since, write);
  }

  @Idempotent()
  @Post(':id/rotate-secret')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: "Replaces the endpoint's secret, optionally keeping the previous one in webhook-signature (extension)",
    description:
      'X-Service-Signature uses the new secret at once. For overlapSeconds, webhook-signature carries two ' +
      "space-separated signatures, the new secret's first; then the previous secret is erased.",
  })
  @ApiEnvelope(WebhookResponse)
  @ApiErrors(400, 404)
  rotateSecret(
    @OrgId() organisationId: string,
    @WebhookId() id: string,
    @Body() body: RotateSecretDto,
    @Write() write: WriteContext,
  ) {
    return this.webhooks.rotateSecret(organisationId, id, body, write);
  }
}
