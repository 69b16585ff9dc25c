import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { RATING_TYPES, RatingType } from '../../skills/rating-types';
import { Employee } from '../entities/employee.entity';

@ApiSchema({ name: 'Employee' })
export class EmployeeResponse {
  @ApiProperty()
  id: string;
  @ApiProperty()
  personnelNumber: string;
  @ApiProperty()
  firstName: string;
  @ApiProperty()
  lastName: string;
  @ApiProperty({ format: 'email' })
  businessEmail: string;
  @ApiProperty({ type: String, nullable: true })
  title: string | null;
  @ApiProperty({ type: String, nullable: true })
  gender: string | null;
  @ApiProperty({ type: String, nullable: true })
  departmentId: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  hiredAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'set when the employee is deactivated',
  })
  leftAt: string | null;
  @ApiProperty()
  isHRTeamMember: boolean;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Moves on every change of the employee itself (a PATCH, a deactivation); not on a rating',
  })
  updatedAt: string;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      '1 at creation, +1 at every change of the employee itself (a no-op PATCH changes nothing); sent as the ETag, ' +
      'and what If-Match and Base-Version name',
  })
  version: number;
}

/** EmployeeDetail's latest rating is narrower than PersonSkill's: the spec lists only these three fields. */
@ApiSchema({ name: 'EmployeeSkillLatestRating' })
export class EmployeeSkillLatestRatingResponse {
  @ApiProperty({ type: 'integer' })
  score: number;
  @ApiProperty({ enum: RATING_TYPES })
  ratingType: RatingType;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

/** The fields that name an employee's link to a skill: every response about a person skill or a rating has them. */
export class PersonSkillFields {
  @ApiProperty()
  personSkillId: string;
  @ApiProperty()
  skillId: string;
  @ApiProperty()
  skillName: string;
}

@ApiSchema({ name: 'EmployeeSkill' })
export class EmployeeSkillResponse extends PersonSkillFields {
  @ApiProperty({ type: EmployeeSkillLatestRatingResponse, nullable: true })
  latestRating: EmployeeSkillLatestRatingResponse | null;
}

@ApiSchema({ name: 'EmployeeDetail' })
export class EmployeeDetailResponse extends EmployeeResponse {
  @ApiProperty({ type: [EmployeeSkillResponse], description: 'ordered by skillName' })
  skills: EmployeeSkillResponse[];
}

@ApiSchema({ name: 'DeactivatedEmployee' })
export class DeactivatedEmployeeResponse {
  @ApiProperty()
  id: string;
  @ApiProperty({ format: 'date-time' })
  leftAt: string;
}

/** The columns an EmployeeResponse is made of: an entity, or a raw row of the employees repository. */
export type EmployeeFields = Omit<Employee, 'organisationId'>;

/** An employee with its skills, each with its latest rating, as the employees repository reads them. */
export interface EmployeeDetailRecord {
  employee: EmployeeFields;
  skills: Array<{
    personSkillId: string;
    skillId: string;
    skillName: string;
    latestRating: { score: number; ratingType: RatingType; createdAt: Date } | null;
  }>;
}

export function toEmployeeResponse(employee: EmployeeFields): EmployeeResponse {
  return {
    id: employee.id,
    personnelNumber: employee.personnelNumber,
    firstName: employee.firstName,
    lastName: employee.lastName,
    businessEmail: employee.businessEmail,
    title: employee.title,
    gender: employee.gender,
    departmentId: employee.departmentId,
    hiredAt: employee.hiredAt?.toISOString() ?? null,
    leftAt: employee.leftAt?.toISOString() ?? null,
    isHRTeamMember: employee.isHRTeamMember,
    createdAt: employee.createdAt.toISOString(),
    updatedAt: employee.updatedAt.toISOString(),
    version: employee.version,
  };
}

export function toEmployeeDetailResponse({ employee, skills }: EmployeeDetailRecord): EmployeeDetailResponse {
  return {
    ...toEmployeeResponse(employee),
    skills: skills.map(({ personSkillId, skillId, skillName, latestRating }) => ({
      personSkillId,
      skillId,
      skillName,
      latestRating: latestRating && {
        score: latestRating.score,
        ratingType: latestRating.ratingType,
        createdAt: latestRating.createdAt.toISOString(),
      },
    })),
  };
}
