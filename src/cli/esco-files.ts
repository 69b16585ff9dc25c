import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CsvError, parse } from 'csv-parse';
import { ValidationError } from '../errors/errors';
import { EscoConcept, EscoInput, EscoRelation } from '../skills/esco/esco-input';

/** The files of ESCO's CSV download (English) the import reads, and the columns it needs of each. */
const FILES = {
  skills: {
    name: 'skills_en.csv',
    columns: ['conceptUri', 'preferredLabel', 'altLabels', 'hiddenLabels', 'description'],
  },
  groups: {
    name: 'skillGroups_en.csv',
    columns: ['conceptUri', 'preferredLabel', 'altLabels', 'hiddenLabels', 'description'],
  },
  relations: {
    name: 'broaderRelationsSkillPillar_en.csv',
    columns: ['conceptType', 'conceptUri', 'broaderType', 'broaderUri'],
  },
} as const;

type Progress = (done: number, total: number) => void;

/**
 * Reads and checks the three files of `directory` whole, streaming each through csv-parse (ESCO's fields hold
 * quoted line breaks and commas): a missing file or column, or a malformed record, is a ValidationError naming
 * the file, line and column, before anything is written. `progress` is told the bytes read.
 */
export async function readEscoDirectory(directory: string, progress: Progress): Promise<EscoInput> {
  const paths = Object.values(FILES).map((file) => join(directory, file.name));
  const sizes = await Promise.all(
    paths.map((path, index) =>
      stat(path).then(
        (found) => found.size,
        () => {
          throw new ValidationError(`${Object.values(FILES)[index].name} is missing from ${directory}`);
        },
      ),
    ),
  );
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let done = 0;
  const counted: Progress = (bytes) => {
    done += bytes;
    progress(done, total);
  };
  progress(0, total);
  const concept =
    (file: string) =>
    (record: Record<string, string>, line: number): EscoConcept => ({
      file,
      line,
      uri: record.conceptUri.trim(),
      label: record.preferredLabel.trim(),
      altLabels: labels(record.altLabels),
      hiddenLabels: labels(record.hiddenLabels),
      description: record.description.trim() === '' ? null : record.description.trim(),
    });
  const skills = await readRecords(directory, FILES.skills, concept(FILES.skills.name), counted);
  const groups = await readRecords(directory, FILES.groups, concept(FILES.groups.name), counted);
  const relations = await readRecords(
    directory,
    FILES.relations,
    (record, line): EscoRelation => ({
      file: FILES.relations.name,
      line,
      conceptType: record.conceptType.trim(),
      uri: record.conceptUri.trim(),
      broaderType: record.broaderType.trim(),
      broaderUri: record.broaderUri.trim(),
    }),
    counted,
  );
  return { skills, groups, relations };
}

/** One label per line of an ESCO label field, blanks left out. */
function labels(field: string): string[] {
  return field
    .split(/\r?\n/)
    .map((label) => label.trim())
    .filter((label) => label !== '');
}

/** Every record of one file, each with the line it starts on. */
async function readRecords<T>(
  directory: string,
  file: { name: string; columns: readonly string[] },
  toRow: (record: Record<string, string>, line: number) => T,
  progress: Progress,
): Promise<T[]> {
  const stream = createReadStream(join(directory, file.name));
  stream.on('data', (chunk) => progress(chunk.length, 0));
  const parser = stream.pipe(
    parse({
      bom: true,
      columns: (header: string[]) => {
        const missing = file.columns.filter((column) => !header.includes(column));
        if (missing.length > 0) {
          throw new ValidationError(`${file.name}: line 1: the header lacks ${missing.join(', ')}`);
        }
        return header;
      },
      skip_empty_lines: true,
      info: true,
    }),
  );
  const rows: T[] = [];
  let nextLine = 2;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      rows.push(toRow(record, nextLine));
      nextLine = info.lines + 1;
    }
  } catch (error) {
    stream.destroy();
    if (error instanceof ValidationError) throw error;
    if (error instanceof CsvError) throw malformed(file.name, error);
    throw error;
  }
  return rows;
}

/** "skills_en.csv: line 7, column 5: Invalid Closing Quote…": where csv-parse stopped, and why. */
function malformed(file: string, error: CsvError): ValidationError {
  const context = error as CsvError & { lines?: number; index?: number };
  const column = typeof context.index === 'number' ? `, column ${context.index + 1}` : '';
  return new ValidationError(`${file}: line ${context.lines ?? '?'}${column}: ${error.message}; nothing was written`);
}
