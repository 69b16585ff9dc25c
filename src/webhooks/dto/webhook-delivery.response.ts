import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { WebhookDelivery } from '../entities/webhook-delivery.entity';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'refused'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One attempt to send one event to an endpoint (extension: not in the spec). */
@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid', description: 'Also sent as the X-Service-Delivery header' })
  deliveryId: string;

  @ApiProperty({
    format: 'uuid',
    description: 'The event sent: its id in GET /events and the webhook-id header, the same on every redelivery',
  })
  eventId: string;

  @ApiProperty({ example: 'employee.created', description: 'An event name, or webhook.test' })
  event: string;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    description:
      'pending: not attempted yet; delivered: answered 2xx; failed: answered otherwise, timed out or the connection failed; ' +
      'refused: the destination address is not public',
  })
  status: DeliveryStatus;

  @ApiProperty({ nullable: true, type: 'integer', description: 'HTTP status of the answer' })
  statusCode: number | null;

  @ApiProperty({ nullable: true, type: String, description: 'Why no answer came' })
  error: string | null;

  @ApiProperty({ nullable: true, type: 'integer', description: 'From dialling to the answer, in ms' })
  durationMs: number | null;

  @ApiProperty({ format: 'date-time', description: 'When the event was recorded' })
  createdAt: string;

  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When the attempt finished' })
  attemptedAt: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The delivery this one repeats (redelivery or recovery); null for a first delivery',
  })
  redeliveryOf: string | null;
}

export function toWebhookDeliveryResponse(delivery: WebhookDelivery): WebhookDeliveryResponse {
  return {
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    event: delivery.event,
    status: delivery.outcome ?? 'pending',
    statusCode: delivery.statusCode,
    error: delivery.error,
    durationMs: delivery.durationMs,
    createdAt: delivery.createdAt.toISOString(),
    attemptedAt: delivery.attemptedAt?.toISOString() ?? null,
    redeliveryOf: delivery.redeliveryOf,
  };
}
