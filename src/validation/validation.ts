import { ValidationPipe } from '@nestjs/common';
import type { ValidationError as ClassValidatorError } from 'class-validator';
import { FieldError, ValidationError } from '../errors/errors';

/** The one validation pipe: unknown fields are rejected, never dropped; failures name each field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: toValidationError,
  });
}

/** class-validator's errors as the 400 VALIDATION_ERROR of the contract: every message, and each field. */
export function toValidationError(errors: ClassValidatorError[]): ValidationError {
  const details = flattenValidationErrors(errors);
  return new ValidationError(details.map((detail) => detail.message).join('; '), details);
}

/**
 * The rules whose failure says most, in order: a missing value, then a wrong type. class-validator checks a
 * field's rules from the last decorator up, so on a missing field the first failure would be its length.
 */
const TELLING_RULES = [
  'isDefined',
  'isNotEmpty',
  'arrayNotEmpty',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
];

function rank(rule: string): number {
  const index = TELLING_RULES.indexOf(rule);
  return index === -1 ? TELLING_RULES.length : index;
}

/** One message per field: that of the most telling rule it broke (TELLING_RULES), else of its first one. */
function mostTellingMessage(constraints: Record<string, string>): string | undefined {
  const rules = Object.keys(constraints);
  if (rules.length === 0) return undefined;
  return constraints[rules.reduce((best, rule) => (rank(rule) < rank(best) ? rule : best))];
}

/**
 * class-validator's errors as one FieldError per failed field, nested ones included. Each is named by its
 * path from `parent` (`name`, `a.b`, `[0].c`, `[0].list[1]`), and a message that starts with the property
 * starts with that path instead; a nested message that does not is prefixed with it.
 */
export function flattenValidationErrors(errors: ClassValidatorError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const { property } = error;
    const field = /^\d+$/.test(property) ? `${parent}[${property}]` : parent ? `${parent}.${property}` : property;
    const message = mostTellingMessage(error.constraints ?? {});
    const own =
      message === undefined
        ? []
        : [
            {
              field,
              message: message.startsWith(property)
                ? `${field}${message.slice(property.length)}`
                : field === property
                  ? message
                  : `${field}: ${message}`,
            },
          ];
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}
