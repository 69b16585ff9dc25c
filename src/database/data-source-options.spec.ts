import { createDataSourceOptions, TRANSACTION_LIMIT_MS } from './data-source-options';

const extraOf = (statementMs?: number) =>
  (
    createDataSourceOptions(
      'postgres://u@db/skills',
      4,
      statementMs ? { connectMs: 5000, statementMs } : undefined,
    ) as {
      extra: Record<string, unknown>;
    }
  ).extra;

describe('createDataSourceOptions', () => {
  it('ends a transaction left idle after 30 s, on every connection', () => {
    expect(TRANSACTION_LIMIT_MS).toBe(30_000);
    expect(extraOf().idle_in_transaction_session_timeout).toBe(30_000);
    expect(extraOf(15_000).idle_in_transaction_session_timeout).toBe(30_000);
  });

  it('keeps the configured statement limit, but never above 30 s', () => {
    expect(extraOf(15_000)).toMatchObject({ statement_timeout: 15_000, query_timeout: 15_500 });
    expect(extraOf(120_000)).toMatchObject({ statement_timeout: 30_000, query_timeout: 30_500 });
  });
});
