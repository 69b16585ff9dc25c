import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIsoDateTime } from '../../validation/iso-date-time';

export class RecoverDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'Redeliver every event whose latest delivery to the endpoint recorded at or after this time failed',
  })
  @IsIsoDateTime()
  since: string;
}

@ApiSchema({ name: 'WebhookRecovery' })
export class RecoverResponse {
  @ApiProperty({ type: 'integer', description: 'How many redeliveries were queued' })
  queued: number;
}
