import { ValidateIf } from 'class-validator';

/** The field may be left out, but when present it must be valid: unlike @IsOptional(), null is rejected. */
export function IsOptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}
