import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';

const counting = new AsyncLocalStorage<string[]>();

/**
 * The SQL statements `work`, and all it starts, sends through `dataSource`, in order. What the application sends
 * meanwhile on its own (the replicas' once-a-second check on the primary, bookkeeping writes) runs in another
 * async context and is left out, so a count does not depend on when a timer fires.
 */
export async function statementsSent(dataSource: DataSource, work: () => Promise<unknown>): Promise<string[]> {
  const logger = dataSource.logger;
  const logQuery = logger.logQuery.bind(logger);
  const spy = jest.spyOn(logger, 'logQuery').mockImplementation((query, parameters, runner) => {
    counting.getStore()?.push(query);
    return logQuery(query, parameters, runner);
  });
  const statements: string[] = [];
  try {
    await counting.run(statements, work);
    return statements;
  } finally {
    spy.mockRestore();
  }
}

/** How many SQL statements `work`, and all it starts, sends through `dataSource` (statementsSent). */
export async function countQueries(dataSource: DataSource, work: () => Promise<unknown>): Promise<number> {
  return (await statementsSent(dataSource, work)).length;
}
