import { plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { FieldError, ValidationError } from '../../errors/errors';
import { nameKey } from '../../names/name-key';
import { IsIsoDateTime } from '../../validation/iso-date-time';
import { flattenValidationErrors } from '../../validation/validation';
import { REPLACEMENT_STATUSES, ReplacementStatus } from '../entities/position-replacement.entity';
import { POSITION_STATUSES, PositionStatus } from '../entities/position.entity';

export class RequiredSkillEntry {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  skillName: string;

  @IsInt()
  minimumRating: number;
}

export class ReplacementEntry {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  candidatePersonnelNumber: string;

  @IsIsoDateTime()
  readyAt: string;

  @IsIn(REPLACEMENT_STATUSES, { message: `status must be one of ${REPLACEMENT_STATUSES.join(', ')}` })
  status: ReplacementStatus;
}

/** One position of the import file; decisions.md ("Command line") fixes the format. */
export class PositionEntry {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  ref: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  department?: string | null;

  @IsIn(POSITION_STATUSES, { message: `status must be one of ${POSITION_STATUSES.join(', ')}` })
  status: PositionStatus;

  @IsOptional()
  @IsIsoDateTime()
  mustBeFilledBy?: string | null;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  replacesPersonnelNumber?: string | null;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => RequiredSkillEntry)
  requiredSkills: RequiredSkillEntry[];

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ReplacementEntry)
  possibleReplacements: ReplacementEntry[];
}

/** Problems listed in the error message before the rest are only counted. */
const MAX_LISTED_PROBLEMS = 20;

/**
 * Reads a positions file and checks everything that needs no database: JSON, shape, statuses, dates,
 * and refs, skill names and candidates each appearing once where they must. Every problem is named.
 */
export function parsePositionsFile(text: string): PositionEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`The positions file is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(data)) throw new ValidationError('The positions file must hold a JSON array of positions');

  const problems: FieldError[] = [];
  const entries = data.map((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(problem(`[${index}]`, 'must be an object'));
      return undefined;
    }
    const entry = plainToInstance(PositionEntry, item);
    const errors = validateSync(entry, { whitelist: true, forbidNonWhitelisted: true });
    problems.push(...flattenValidationErrors(errors, `[${index}]`));
    return errors.length ? undefined : entry;
  });
  const valid = entries.filter((entry): entry is PositionEntry => entry !== undefined);
  if (problems.length === 0) problems.push(...findDuplicates(valid));
  throwIfAny(problems);
  return valid;
}

/** Throws one validation error naming every problem (the first MAX_LISTED_PROBLEMS in the message). */
export function throwIfAny(problems: FieldError[]): void {
  if (problems.length === 0) return;
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((each) => each.message);
  const more = problems.length - listed.length;
  const summary = listed.join('; ') + (more > 0 ? `; and ${more} more` : '');
  throw new ValidationError(`The positions file is invalid: ${summary}`, problems);
}

function findDuplicates(entries: PositionEntry[]): FieldError[] {
  const problems: FieldError[] = [];
  const firstIndexByRef = new Map<string, number>();
  entries.forEach((entry, index) => {
    const first = firstIndexByRef.get(entry.ref);
    if (first !== undefined) problems.push(problem(`[${index}].ref`, `repeats ref "${entry.ref}" of [${first}]`));
    else firstIndexByRef.set(entry.ref, index);

    const skillNames = new Set<string>();
    entry.requiredSkills.forEach(({ skillName }, skillIndex) => {
      const key = nameKey(skillName);
      if (skillNames.has(key)) {
        problems.push(problem(`[${index}].requiredSkills[${skillIndex}].skillName`, `repeats skill "${skillName}"`));
      }
      skillNames.add(key);
    });

    const candidates = new Set<string>();
    entry.possibleReplacements.forEach(({ candidatePersonnelNumber }, candidateIndex) => {
      if (candidates.has(candidatePersonnelNumber)) {
        problems.push(
          problem(
            `[${index}].possibleReplacements[${candidateIndex}].candidatePersonnelNumber`,
            `repeats candidate "${candidatePersonnelNumber}"`,
          ),
        );
      }
      candidates.add(candidatePersonnelNumber);
    });
  });
  return problems;
}

export function problem(field: string, message: string): FieldError {
  return { field, message: `${field} ${message}` };
}
