import { ApiProperty, ApiSchema, PickType } from '@nestjs/swagger';
import { RatingResponse } from '../../ratings/dto/rating.response';
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
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'set when the employee is deactivated' })
  leftAt: string | null;
  @ApiProperty()
  isHRTeamMember: boolean;
}

/** EmployeeDetail's latest rating is narrower than PersonSkill's: the spec lists only these three fields. */
@ApiSchema({ name: 'EmployeeSkillLatestRating' })
export class EmployeeSkillLatestRatingResponse extends PickType(RatingResponse, ['score', 'ratingType', 'createdAt'] as const) {}

@ApiSchema({ name: 'EmployeeSkill' })
export class EmployeeSkillResponse {
  @ApiProperty()
  personSkillId: string;
  @ApiProperty()
  skillId: string;
  @ApiProperty()
  skillName: string;
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

/** The columns an EmployeeResponse is made of: an entity, or a raw row selected with employeeColumns(). */
export type EmployeeFields = Omit<Employee, 'organisationId' | 'createdAt' | 'updatedAt'>;

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
  };
}
