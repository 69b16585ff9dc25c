import { parseCsv } from './csv';

describe('parseCsv', () => {
  it('keys each record by the header and leaves empty cells out', () => {
    expect(parseCsv('a,b,c\n1,,3\r\nx,y,z\n')).toEqual([
      { a: '1', c: '3' },
      { a: 'x', b: 'y', c: 'z' },
    ]);
  });

  it('reads quoted fields with commas, line breaks and doubled quotes', () => {
    expect(parseCsv('name,comment\n"Smith, J","said ""hi""\nthen left"')).toEqual([
      { name: 'Smith, J', comment: 'said "hi"\nthen left' },
    ]);
  });

  it('skips blank lines and a byte order mark', () => {
    expect(parseCsv('\uFEFFa\n\n1\n')).toEqual([{ a: '1' }]);
  });

  it('refuses a record with another number of fields than the header, and an open quote', () => {
    expect(() => parseCsv('a,b\n1\n')).toThrow('CSV record 1 has 1 fields; the header has 2');
    expect(() => parseCsv('a\n"open\n')).toThrow('CSV ends inside a quoted field');
  });
});
