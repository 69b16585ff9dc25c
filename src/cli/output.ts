/** Where a command writes: one JSON object with --json, otherwise lines for a person. */
export interface CliOutput {
  result(json: object, text: string): void;
}

export function createOutput(json: boolean, write: (chunk: string) => void): CliOutput {
  return {
    result: (object, text) => write(json ? `${JSON.stringify(object)}\n` : `${text}\n`),
  };
}

/** Rows under a header, in columns as wide as their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
