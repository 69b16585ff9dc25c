import { PositionReplacement, ReplacementStatus } from '../entities/position-replacement.entity';
import { PositionRequiredSkill } from '../entities/position-required-skill.entity';
import { Position, PositionStatus } from '../entities/position.entity';

/** A position as the file wants it, its references resolved to ids. Omitted optional fields are null. */
export interface DesiredPosition {
  ref: string;
  name: string;
  description: string | null;
  department: string | null;
  status: PositionStatus;
  mustBeFilledBy: Date | null;
  replacesEmployeeId: string | null;
  requiredSkills: DesiredRequiredSkill[];
  replacements: DesiredReplacement[];
}

export interface DesiredRequiredSkill {
  skillId: string;
  minimumRating: number;
}

export interface DesiredReplacement {
  candidateEmployeeId: string;
  readyAt: Date;
  status: ReplacementStatus;
}

/** A position as stored, with its children. */
export interface StoredPosition {
  position: Position;
  requiredSkills: PositionRequiredSkill[];
  replacements: PositionReplacement[];
}

export type PlannedPosition =
  | { action: 'create'; desired: DesiredPosition }
  | { action: 'update'; desired: DesiredPosition; stored: StoredPosition }
  | { action: 'unchanged'; stored: StoredPosition };

/** What to do with each position of the file, in file order: the upsert key is `ref`. */
export function planImport(
  desired: DesiredPosition[],
  storedByRef: ReadonlyMap<string, StoredPosition>,
): PlannedPosition[] {
  return desired.map((each) => {
    const stored = storedByRef.get(each.ref);
    if (!stored) return { action: 'create', desired: each };
    return isUnchanged(stored, each) ? { action: 'unchanged', stored } : { action: 'update', desired: each, stored };
  });
}

/** True when storing `desired` would change nothing a reader can see: fields, required skills, replacements. */
export function isUnchanged(
  { position, requiredSkills, replacements }: StoredPosition,
  desired: DesiredPosition,
): boolean {
  return (
    position.name === desired.name &&
    position.description === desired.description &&
    position.department === desired.department &&
    position.status === desired.status &&
    sameInstant(position.mustBeFilledBy, desired.mustBeFilledBy) &&
    position.replacesEmployeeId === desired.replacesEmployeeId &&
    sameRequiredSkills(requiredSkills, desired.requiredSkills) &&
    sameReplacements(replacements, desired.replacements)
  );
}

export interface ReplacementChanges {
  insert: DesiredReplacement[];
  update: Array<{ id: string; readyAt: Date; status: ReplacementStatus }>;
  deleteIds: string[];
}

/** Replacements are matched by candidate, so a kept candidate keeps its replacementId across imports. */
export function diffReplacements(stored: PositionReplacement[], desired: DesiredReplacement[]): ReplacementChanges {
  const storedByCandidate = new Map(stored.map((replacement) => [replacement.candidateEmployeeId, replacement]));
  const desiredCandidates = new Set(desired.map((replacement) => replacement.candidateEmployeeId));
  const changes: ReplacementChanges = {
    insert: [],
    update: [],
    deleteIds: stored.filter((each) => !desiredCandidates.has(each.candidateEmployeeId)).map((each) => each.id),
  };
  for (const wanted of desired) {
    const existing = storedByCandidate.get(wanted.candidateEmployeeId);
    if (!existing) changes.insert.push(wanted);
    else if (!sameInstant(existing.readyAt, wanted.readyAt) || existing.status !== wanted.status) {
      changes.update.push({ id: existing.id, readyAt: wanted.readyAt, status: wanted.status });
    }
  }
  return changes;
}

function sameRequiredSkills(stored: PositionRequiredSkill[], desired: DesiredRequiredSkill[]): boolean {
  if (stored.length !== desired.length) return false;
  const minimumBySkill = new Map(stored.map((skill) => [skill.skillId, skill.minimumRating]));
  return desired.every((skill) => minimumBySkill.get(skill.skillId) === skill.minimumRating);
}

function sameReplacements(stored: PositionReplacement[], desired: DesiredReplacement[]): boolean {
  if (stored.length !== desired.length) return false;
  const changes = diffReplacements(stored, desired);
  return changes.insert.length === 0 && changes.update.length === 0 && changes.deleteIds.length === 0;
}

function sameInstant(a: Date | null, b: Date | null): boolean {
  return a === null || b === null ? a === b : a.getTime() === b.getTime();
}
