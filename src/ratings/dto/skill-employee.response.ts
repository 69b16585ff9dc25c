import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EmployeeFields, EmployeeResponse, toEmployeeResponse } from '../../employees/dto/employee.response';
import { LatestRatingRecord, PersonSkillLatestRatingResponse, toLatestRatingResponse } from './rating.response';

/** An employee linked to a skill, with the latest rating of that link (GET /skills/{id}/employees). */
@ApiSchema({ name: 'SkillEmployee' })
export class SkillEmployeeResponse {
  @ApiProperty({ type: EmployeeResponse, description: 'The employee, exactly as GET /employees returns it' })
  employee: EmployeeResponse;
  @ApiProperty({ example: '0193a1b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b' })
  personSkillId: string;
  @ApiProperty({
    type: PersonSkillLatestRatingResponse,
    nullable: true,
    description: 'The newest rating of the employee on the skill; null when never rated',
  })
  latestRating: PersonSkillLatestRatingResponse | null;
}

/** A skill's employee as the ratings repository reads it. */
export interface SkillEmployeeRecord {
  employee: EmployeeFields;
  personSkillId: string;
  latestRating: LatestRatingRecord | null;
}

export function toSkillEmployeeResponse({
  employee,
  personSkillId,
  latestRating,
}: SkillEmployeeRecord): SkillEmployeeResponse {
  return {
    employee: toEmployeeResponse(employee),
    personSkillId,
    latestRating: toLatestRatingResponse(latestRating),
  };
}
