import { QueryFailedError } from 'typeorm';
import { isReplicaFailure, isReplicaUnreachable } from './replica-failures';

const failed = (code: string) => new QueryFailedError('SELECT 1', [], Object.assign(new Error(code), { code }));

describe('replica failures', () => {
  it.each(['40001', '40P01', '57P04', '25006', '55000', '3D000', '28000', '57014', '57P03', '08006', '53300'])(
    'asks the primary again after SQLSTATE %s',
    (code) => {
      expect(isReplicaFailure(failed(code))).toBe(true);
    },
  );

  it('asks the primary again when the replica cannot be reached', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });
    expect(isReplicaFailure(refused)).toBe(true);
    expect(isReplicaUnreachable(refused)).toBe(true);
  });

  it.each(['22P02', '23505', '42P01'])('lets SQLSTATE %s stand: the primary would fail it too', (code) => {
    expect(isReplicaFailure(failed(code))).toBe(false);
  });

  it('leaves a replica in use after a recovery conflict or a statement timeout', () => {
    expect(isReplicaUnreachable(failed('40001'))).toBe(false);
    expect(isReplicaUnreachable(failed('57014'))).toBe(false);
  });
});
