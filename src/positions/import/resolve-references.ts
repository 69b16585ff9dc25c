import { FieldError } from '../../errors/errors';
import { Skill } from '../../skills/entities/skill.entity';
import { ambiguousNameError } from '../../skills/resolve/ambiguous-name';
import { Resolution } from '../../skills/resolve/skill-resolver';
import { parseIsoDateTime, toDateOrNull } from '../../validation/iso-date-time';
import { DesiredPosition } from './import-plan';
import { PositionEntry, problem, throwIfAny } from './positions-file';

/** What the organisation's database knows of the file's references. */
export interface KnownReferences {
  employeeIdByPersonnelNumber: ReadonlyMap<string, string>;
  /** How each skill name resolved (SkillResolver: a name, else an alias only one skill has), by the name as written. */
  skillByName: ReadonlyMap<string, Resolution>;
  /** The skills the names resolved to, by id. */
  skillById: ReadonlyMap<string, Pick<Skill, 'id' | 'name' | 'ratingScaleMin' | 'ratingScaleMax'>>;
}

/** Every personnelNumber the file names, once each. */
export function referencedPersonnelNumbers(entries: PositionEntry[]): string[] {
  const numbers = entries.flatMap((entry) => [
    ...(entry.replacesPersonnelNumber ? [entry.replacesPersonnelNumber] : []),
    ...entry.possibleReplacements.map((replacement) => replacement.candidatePersonnelNumber),
  ]);
  return [...new Set(numbers)];
}

/** Every skill name the file names, as written, once each. */
export function referencedSkillNames(entries: PositionEntry[]): string[] {
  return [...new Set(entries.flatMap((entry) => entry.requiredSkills.map((skill) => skill.skillName)))];
}

/** The skill a name resolved to; undefined when none or several answer to it. */
function skillNamed(known: KnownReferences, skillName: string) {
  const resolution = known.skillByName.get(skillName);
  return resolution?.skill ? known.skillById.get(resolution.skill.id) : undefined;
}

/**
 * The file's positions with their personnelNumbers and skill names turned into ids. Every unknown
 * reference and every minimumRating outside its skill's scale is named, and then nothing is returned.
 */
export function resolveReferences(entries: PositionEntry[], known: KnownReferences): DesiredPosition[] {
  throwIfAny(entries.flatMap((entry, index) => referenceProblems(entry, `[${index}]`, known)));
  return entries.map((entry) => toDesiredPosition(entry, known));
}

function referenceProblems(entry: PositionEntry, path: string, known: KnownReferences): FieldError[] {
  const problems: FieldError[] = [];
  const checkEmployee = (personnelNumber: string, field: string) => {
    if (!known.employeeIdByPersonnelNumber.has(personnelNumber)) {
      problems.push(problem(field, `names unknown employee personnelNumber "${personnelNumber}"`));
    }
  };
  if (entry.replacesPersonnelNumber) checkEmployee(entry.replacesPersonnelNumber, `${path}.replacesPersonnelNumber`);
  const skillIds = new Set<string>();
  entry.requiredSkills.forEach(({ skillName, minimumRating }, skillIndex) => {
    const field = `${path}.requiredSkills[${skillIndex}]`;
    const resolution = known.skillByName.get(skillName);
    const skill = skillNamed(known, skillName);
    if (resolution?.match === 'ambiguous') {
      problems.push(...(ambiguousNameError(`${field}.skillName`, resolution).details ?? []));
    } else if (!skill) problems.push(problem(`${field}.skillName`, `names unknown skill "${skillName}"`));
    else if (skillIds.has(skill.id)) {
      problems.push(problem(`${field}.skillName`, `names skill "${skill.name}" a second time`));
    } else if (minimumRating < skill.ratingScaleMin || minimumRating > skill.ratingScaleMax) {
      const scale = `${skill.ratingScaleMin}..${skill.ratingScaleMax}`;
      problems.push(
        problem(
          `${field}.minimumRating`,
          `${minimumRating} is outside the rating scale ${scale} of skill "${skill.name}"`,
        ),
      );
    }
    if (skill) skillIds.add(skill.id);
  });
  entry.possibleReplacements.forEach(({ candidatePersonnelNumber }, candidateIndex) =>
    checkEmployee(candidatePersonnelNumber, `${path}.possibleReplacements[${candidateIndex}].candidatePersonnelNumber`),
  );
  return problems;
}

/** Only for an entry whose references referenceProblems found known and whose dates the file's validation checked. */
function toDesiredPosition(entry: PositionEntry, known: KnownReferences): DesiredPosition {
  const employeeId = (personnelNumber: string) => known.employeeIdByPersonnelNumber.get(personnelNumber)!;
  return {
    ref: entry.ref,
    name: entry.name,
    description: entry.description ?? null,
    department: entry.department ?? null,
    status: entry.status,
    mustBeFilledBy: toDateOrNull(entry.mustBeFilledBy) ?? null,
    replacesEmployeeId: entry.replacesPersonnelNumber ? employeeId(entry.replacesPersonnelNumber) : null,
    requiredSkills: entry.requiredSkills.map(({ skillName, minimumRating }) => ({
      skillId: skillNamed(known, skillName)!.id,
      minimumRating,
    })),
    replacements: entry.possibleReplacements.map(({ candidatePersonnelNumber, readyAt, status }) => ({
      candidateEmployeeId: employeeId(candidatePersonnelNumber),
      readyAt: parseIsoDateTime(readyAt)!,
      status,
    })),
  };
}
