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
