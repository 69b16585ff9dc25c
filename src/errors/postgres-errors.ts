import { QueryFailedError } from 'typeorm';
import { AppError, ConflictError } from './errors';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

interface PostgresError {
  code?: string;
  constraint?: string;
}

/** What a write's constraint violations mean to a client. */
export interface ConstraintErrors {
  /** The 409 message for each unique index the write may run into. */
  unique?: Record<string, string>;
  /** The error for a foreign-key violation: 409 when a delete finds the row still referenced, 404 for a missing reference. */
  foreignKey?: () => AppError;
}

/**
 * Runs one write and turns the constraint violations it names into the client's error (409 or 404);
 * anything else passes unchanged. Inside a transaction the violation has already aborted it, so the
 * error must leave the transaction, which it does by being thrown.
 */
export async function mapConstraintErrors<T>(write: Promise<T>, errors: ConstraintErrors): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const cause = error instanceof QueryFailedError ? (error.driverError as PostgresError) : null;
    const message = cause?.code === UNIQUE_VIOLATION && cause.constraint && errors.unique?.[cause.constraint];
    if (message) throw new ConflictError(message);
    if (cause?.code === FOREIGN_KEY_VIOLATION && errors.foreignKey) throw errors.foreignKey();
    throw error;
  }
}

/**
 * A row of a guarded write (ColumnMap's updateOne and updateMany with unique keys, an insert that does nothing on
 * a conflict): an id it wrote, or the unique index a row of it found taken and did not break. Finding the
 * conflict before the index does keeps the taken value out of PostgreSQL's own log, which records every unique
 * violation with its key (issue 41).
 */
export interface GuardedRow {
  id: string | null;
  conflict: string | null;
}

/** The ids the guarded write wrote; the 409 of `unique` (as mapConstraintErrors) when it found an index taken. */
export function writtenIds(rows: GuardedRow[], unique: Record<string, string>): string[] {
  const conflict = rows.find((row) => row.conflict !== null)?.conflict;
  if (conflict) throw takenError(conflict, unique);
  return rows.map((row) => row.id!);
}

/** The 409 of a unique index a write found taken; an index without a message is the server's error. */
export function takenError(constraint: string, unique: Record<string, string>): Error {
  const message = unique[constraint];
  return message ? new ConflictError(message) : new Error(`Unexpected conflict on ${constraint}`);
}
