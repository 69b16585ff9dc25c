/**
 * The records of an RFC 4180 CSV text, each as an object keyed by the header row: fields in double quotes may
 * hold commas, line breaks and doubled quotes; lines end in LF or CRLF; an empty cell leaves its field out.
 */
export function parseCsv(text: string): Record<string, string>[] {
  const [header, ...records] = parseRows(text.replace(/^\uFEFF/, ''));
  if (!header) return [];
  return records
    .filter((row) => row.some((cell) => cell !== ''))
    .map((row, line) => {
      if (row.length !== header.length) {
        throw new Error(`CSV record ${line + 1} has ${row.length} fields; the header has ${header.length}`);
      }
      const record: Record<string, string> = {};
      header.forEach((field, column) => {
        if (row[column] !== '') record[field] = row[column];
      });
      return record;
    });
}

function parseRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        cell += '"';
        at++;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || (char === '\r' && text[at + 1] === '\n')) {
      if (char === '\r') at++;
      rows.push([...row, cell]);
      row = [];
      cell = '';
    } else {
      cell += char;
    }
  }
  if (quoted) throw new Error('CSV ends inside a quoted field');
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}
