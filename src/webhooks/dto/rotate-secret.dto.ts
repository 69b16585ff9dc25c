import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsOptionalNotNull } from '../../validation/optional-not-null';
import { MAX_WEBHOOK_SECRET_LENGTH } from './create-webhook.dto';

/** A week: long enough for any receiver's deploy, short enough that a leaked secret dies soon. */
export const MAX_OVERLAP_SECONDS = 604_800;

export class RotateSecretDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_WEBHOOK_SECRET_LENGTH,
    description: 'The new secret: signs X-Service-Signature at once; stored encrypted, never returned',
    writeOnly: true,
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_WEBHOOK_SECRET_LENGTH)
  secret: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_OVERLAP_SECONDS,
    default: 86_400,
    description: 'For how long webhook-signature also carries a signature with the previous secret (after the new one)',
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_OVERLAP_SECONDS)
  overlapSeconds: number = 86_400;
}
