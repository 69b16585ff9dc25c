import { parseLogPosition } from './log-position';

describe('parseLogPosition', () => {
  it('reads pg_lsn as a number that compares', () => {
    expect(parseLogPosition('0/16B3748')).toBe(0x16b3748n);
    expect(parseLogPosition('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLogPosition('1/0')! > parseLogPosition('0/FFFFFFFF')!).toBe(true);
  });

  it.each([undefined, '', 'latest', '0/', '/1', '0/1/2', '123456789/0', '0x1/0'])('refuses %p', (text) => {
    expect(parseLogPosition(text)).toBeUndefined();
  });
});
