import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EmployeeFields, EmployeeResponse, toEmployeeResponse } from '../../employees/dto/employee.response';
import { computeSkillsGap, RequiredSkill, summariseSkillsGap } from '../skills-gap';
import { SkillGapResponse } from './position.response';

/** An employee ranked for a position (GET /positions/{id}/candidates). */
@ApiSchema({ name: 'PositionCandidate' })
export class CandidateResponse {
  @ApiProperty({ type: EmployeeResponse, description: 'The employee, exactly as GET /employees returns it' })
  employee: EmployeeResponse;
  @ApiProperty({ type: 'integer', example: 1, description: 'The sum of the gaps in skillsGap' })
  totalGap: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'How many required skills have gap 0' })
  matchedSkills: number;
  @ApiProperty({
    type: [SkillGapResponse],
    description: 'One row per required skill, in the order of requiredSkills, as in a possible replacement',
  })
  skillsGap: SkillGapResponse[];
}

export function toCandidateResponse(
  employee: EmployeeFields,
  requiredSkills: RequiredSkill[],
  latestScoreBySkillId: ReadonlyMap<string, number>,
): CandidateResponse {
  const skillsGap = computeSkillsGap(requiredSkills, latestScoreBySkillId);
  return { employee: toEmployeeResponse(employee), ...summariseSkillsGap(skillsGap), skillsGap };
}
