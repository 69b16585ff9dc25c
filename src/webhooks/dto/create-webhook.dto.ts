import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  registerDecorator,
  ValidationOptions,
} from 'class-validator';
import { DOMAIN_EVENT_NAMES } from '../../events/domain-events';

export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_SECRET_LENGTH = 256;

/**
 * An absolute https URL with a host and no user info, written without spaces or control characters
 * (the URL parser would silently drop some of them, so what is stored would not be what is called).
 */
export function isWebhookUrl(value: unknown): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (typeof value !== 'string' || /[\s\u0000-\u001f\u007f]/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}

function IsWebhookUrl(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be an absolute https URL without user info`, ...options },
      validator: { validate: isWebhookUrl },
    });
}

export class CreateWebhookDto {
  @ApiProperty({ format: 'uri', maxLength: MAX_WEBHOOK_URL_LENGTH, example: 'https://hr.example.com/hooks/skills' })
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  @IsWebhookUrl()
  url: string;

  @ApiProperty({ enum: DOMAIN_EVENT_NAMES, isArray: true, minItems: 1, uniqueItems: true })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(DOMAIN_EVENT_NAMES, {
    each: true,
    message: `each value in events must be one of ${DOMAIN_EVENT_NAMES.join(', ')}`,
  })
  events: string[];

  @ApiPropertyOptional({
    maxLength: MAX_WEBHOOK_SECRET_LENGTH,
    description: 'Key of the X-Service-Signature HMAC; stored encrypted, never returned',
    writeOnly: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_WEBHOOK_SECRET_LENGTH)
  secret?: string;
}
