import { QueryFailedError } from 'typeorm';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

interface PostgresError {
  code?: string;
  constraint?: string;
}

function postgresError(error: unknown): PostgresError | null {
  return error instanceof QueryFailedError ? (error.driverError as PostgresError) : null;
}

/** The unique index or constraint a failed write ran into, or null when it failed for another reason. */
export function violatedUniqueIndex(error: unknown): string | null {
  const cause = postgresError(error);
  return cause?.code === UNIQUE_VIOLATION ? (cause.constraint ?? null) : null;
}

/** True when a delete failed because another row still references the deleted one. */
export function isForeignKeyViolation(error: unknown): boolean {
  return postgresError(error)?.code === FOREIGN_KEY_VIOLATION;
}
