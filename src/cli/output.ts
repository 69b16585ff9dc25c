/** Where a command writes: one JSON object with --json, otherwise lines for a person. */
export interface CliOutput {
  result(json: object, text: string): void;
}

export function createOutput(json: boolean, write: (chunk: string) => void): CliOutput {
  return {
    result: (object, text) => write(json ? `${JSON.stringify(object)}\n` : `${text}\n`),
  };
}
