import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { ParseIdPipe } from '../database/uuid';
import { ApiEnvelope, ApiErrors } from '../openapi/api-envelope.decorators';
import { Page } from '../pagination/pagination';
import { ListSkillEmployeesQuery } from './dto/list-skill-employees.query';
import { SkillEmployeeResponse } from './dto/skill-employee.response';
import { SkillEmployeesService } from './skill-employees.service';

/** Who has a skill: served here, beside the person skills it reads, since skills/ may not import employees/. */
@ApiTags('Skills')
@RequiresScope('read')
@Controller('skills/:id/employees')
export class SkillEmployeesController {
  constructor(private readonly skillEmployees: SkillEmployeesService) {}

  @Get()
  @ApiOperation({
    summary: 'Employees linked to the skill, latest score highest first (never rated last), then employee id',
  })
  @ApiParam({ name: 'id', description: 'Skill id (UUID)', example: '0193a1b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b' })
  @ApiEnvelope(SkillEmployeeResponse, { paginated: true })
  @ApiErrors(400, 404)
  list(
    @OrgId() organisationId: string,
    @Param('id', new ParseIdPipe('Skill')) skillId: string,
    @Query() query: ListSkillEmployeesQuery,
  ): Promise<Page<SkillEmployeeResponse>> {
    return this.skillEmployees.list(organisationId, skillId, query);
  }
}
