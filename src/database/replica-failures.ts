import { isDatabaseUnavailable } from './database-unavailable';

// What a standby answers that the primary would not: 40001 a query cancelled by a recovery conflict, 40P01 a
// deadlock with recovery, 57P04 a database dropped during recovery, 25006 a write (or FOR UPDATE) in a read-only
// server (pg_current_xact_id() too), 55000 a state recovery forbids, 3D000 a database it has not replayed
// yet, 28xxx a login it refuses. Each is asked again on the primary.
const STANDBY_SQLSTATE = /^(40001|40P01|57P04|25006|55000|3D000|28...)$/;

/** Whether a replica's error is the replica's to blame (down, slow, in recovery trouble): the primary is asked. */
export function isReplicaFailure(error: unknown): boolean {
  return isDatabaseUnavailable(error) || STANDBY_SQLSTATE.test(sqlState(error) ?? '');
}

/** Whether the replica cannot be reached at all: it is left out until its next health check succeeds. */
export function isReplicaUnreachable(error: unknown): boolean {
  const code = sqlState(error);
  return isDatabaseUnavailable(error) && code !== '57014' && code !== '55P03';
}

function sqlState(error: unknown): string | undefined {
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  const found = driverError?.code ?? code;
  return typeof found === 'string' ? found : undefined;
}
