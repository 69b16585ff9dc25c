import { ValidationPipe } from '@nestjs/common';
import type { ValidationError as ClassValidatorError } from 'class-validator';
import { FieldError, ValidationError } from './errors';

/** The one validation pipe: unknown fields are rejected, never dropped; failures name each field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      return new ValidationError(details.map((detail) => detail.message).join('; '), details);
    },
  });
}

function flatten(errors: ClassValidatorError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: message.replace(error.property, field),
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
