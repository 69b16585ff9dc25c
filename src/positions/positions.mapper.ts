import {
  PositionDetailResponse,
  PositionResponse,
  PossibleReplacementResponse,
} from './dto/position.response';
import { PositionRecord, ReplacementRecord } from './positions.repository';
import { computeSkillsGap, RequiredSkill } from './skills-gap';

export function toPositionResponse({ position, replacesPerson }: PositionRecord, requiredSkills: RequiredSkill[]): PositionResponse {
  return {
    id: position.id,
    name: position.name,
    description: position.description,
    department: position.department,
    status: position.status,
    mustBeFilledBy: position.mustBeFilledBy?.toISOString() ?? null,
    replacesPerson,
    requiredSkills: requiredSkills.map(({ skillId, skillName, minimumRating }) => ({ skillId, skillName, minimumRating })),
  };
}

export function toPossibleReplacementResponse(
  replacement: ReplacementRecord,
  requiredSkills: RequiredSkill[],
  latestScoreBySkillId: ReadonlyMap<string, number>,
): PossibleReplacementResponse {
  return {
    replacementId: replacement.id,
    candidate: replacement.candidate,
    readyAt: replacement.readyAt.toISOString(),
    status: replacement.status,
    skillsGap: computeSkillsGap(requiredSkills, latestScoreBySkillId),
  };
}

export function toPositionDetailResponse(
  record: PositionRecord,
  requiredSkills: RequiredSkill[],
  possibleReplacements: PossibleReplacementResponse[],
): PositionDetailResponse {
  return { ...toPositionResponse(record, requiredSkills), possibleReplacements };
}
