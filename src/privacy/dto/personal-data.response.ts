import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EmployeeDetailResponse } from '../../employees/dto/employee.response';
import { EventResponse } from '../../events/feed/dto/event.response';
import { REPLACEMENT_STATUSES, ReplacementStatus } from '../../positions/entities/position-replacement.entity';
import { EmployeeLinks } from '../../positions/positions.repository';
import { RatingResponse } from '../../ratings/dto/rating.response';
import { Recipient } from '../../webhooks/webhook-deliveries.repository';

@ApiSchema({ name: 'ErasedEmployee' })
export class ErasedEmployeeResponse {
  @ApiProperty()
  id: string;
  @ApiProperty({ format: 'date-time' })
  erasedAt: string;
}

@ApiSchema({ name: 'ReplacedPosition' })
export class ReplacedPositionResponse {
  @ApiProperty()
  id: string;
  @ApiProperty()
  name: string;
}

@ApiSchema({ name: 'Candidacy' })
export class CandidacyResponse {
  @ApiProperty()
  positionId: string;
  @ApiProperty()
  name: string;
  @ApiProperty({ format: 'date-time' })
  readyAt: string;
  @ApiProperty({ enum: REPLACEMENT_STATUSES })
  status: ReplacementStatus;
}

@ApiSchema({ name: 'PersonalDataPositions' })
export class PersonalDataPositionsResponse {
  @ApiProperty({ type: [ReplacedPositionResponse], description: 'The positions that replace the employee' })
  replaces: ReplacedPositionResponse[];
  @ApiProperty({ type: [CandidacyResponse], description: 'The positions the employee is a candidate for, by readyAt' })
  candidateFor: CandidacyResponse[];
}

@ApiSchema({ name: 'PersonalDataRecipient' })
export class RecipientResponse {
  @ApiProperty()
  webhookId: string;
  @ApiProperty()
  url: string;
  @ApiProperty()
  event: string;
  @ApiProperty()
  eventId: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null until it is attempted' })
  sentAt: string | null;
  @ApiProperty({ enum: ['delivered', 'failed', 'refused'], nullable: true, description: 'null until it is attempted' })
  outcome: Recipient['outcome'];
}

@ApiSchema({ name: 'PersonalData' })
export class PersonalDataResponse {
  @ApiProperty({ type: EmployeeDetailResponse })
  employee: EmployeeDetailResponse;
  @ApiProperty({ type: [RatingResponse], description: 'Every rating of the employee, oldest first' })
  ratings: RatingResponse[];
  @ApiProperty({ type: PersonalDataPositionsResponse })
  positions: PersonalDataPositionsResponse;
  @ApiProperty({ type: [EventResponse], description: 'Every kept event naming the employee, as GET /events lists it' })
  events: EventResponse[];
  @ApiProperty({
    type: [RecipientResponse],
    description: 'Every webhook delivery of those events: where the data was sent, or is to be sent',
  })
  recipients: RecipientResponse[];
}

export function toPositionsResponse({ replaces, candidateFor }: EmployeeLinks): PersonalDataPositionsResponse {
  return {
    replaces: replaces.map(({ id, name }) => ({ id, name })),
    candidateFor: candidateFor.map(({ positionId, name, readyAt, status }) => ({
      positionId,
      name,
      readyAt: readyAt.toISOString(),
      status,
    })),
  };
}

export function toRecipientResponse(recipient: Recipient): RecipientResponse {
  return {
    webhookId: recipient.webhookId,
    url: recipient.url,
    event: recipient.event,
    eventId: recipient.eventId,
    sentAt: recipient.sentAt?.toISOString() ?? null,
    outcome: recipient.outcome,
  };
}
