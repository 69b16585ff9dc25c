/** Seconds a client is asked to wait (Retry-After) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// SQLSTATE classes and codes that mean "the database cannot serve this now", not "this request is wrong":
// 08 connection exception, 53 insufficient resources, 57P01-57P03 shutdown or starting up,
// 57014 statement timeout (or a cancel), 55P03 lock timeout.
const UNAVAILABLE_SQLSTATE = /^(08...|53...|57P0[123]|57014|55P03)$/;
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// What pg and pg-pool say when they give up waiting or lose the connection.
const CLIENT_GAVE_UP =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|Cannot use a pool after calling end/i;

/**
 * Whether an error means the database is unreachable or did not answer in time (docs/api-decisions.md: 503, never
 * 500). Looks through TypeORM's QueryFailedError (driverError) and `cause` chains.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, hops = 0; current && hops < 5; hops++) {
    const { code, message, driverError, cause } = current as {
      code?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || NETWORK_ERRORS.has(code))) return true;
    if (typeof message === 'string' && CLIENT_GAVE_UP.test(message)) return true;
    current = driverError ?? cause;
  }
  return false;
}
