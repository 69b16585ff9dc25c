import { PipeTransform } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { NotFoundError } from '../errors/errors';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newId(): string {
  return uuidv7();
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/**
 * A path id that is not a UUID cannot name anything: 404, before any query runs.
 * Ids are compared lower-case, as the service writes them.
 */
export class ParseIdPipe implements PipeTransform<string, string> {
  constructor(private readonly resource: string) {}

  transform(value: string): string {
    if (!isUuid(value)) throw new NotFoundError(this.resource);
    return value.toLowerCase();
  }
}
