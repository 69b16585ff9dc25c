import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

const postgresError = (code: string) => Object.assign(new Error('server said no'), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a pool that waited too long', new Error('timeout exceeded when trying to connect')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a server that never answered', new Error('Query read timeout')],
    ['a statement timeout', new QueryFailedError('SELECT 1', [], postgresError('57014'))],
    ['a lock timeout', new QueryFailedError('SELECT 1', [], postgresError('55P03'))],
    ['a server shutting down', new QueryFailedError('SELECT 1', [], postgresError('57P01'))],
    ['too many connections', postgresError('53300')],
    ['a connection exception', postgresError('08006')],
    ['a cause chain', new Error('wrapped', { cause: postgresError('57P03') })],
  ])('recognises %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], postgresError('23505'))],
    ['a syntax error', new QueryFailedError('SELEC', [], postgresError('42601'))],
    ['a plain bug', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('leaves %s to be a 500 or a client error', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
