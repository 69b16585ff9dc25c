import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { Write } from '../auth/write.decorator';
import { ParseIdPipe } from '../database/uuid';
import { WriteContext } from '../database/write-context';
import { DeletedResponse } from '../http/deleted.response';
import { ApiEnvelope, ApiErrors } from '../openapi/api-envelope.decorators';
import { DeleteEmployeeSkillQuery } from './dto/delete-employee-skill.query';
import { RateSkillDto } from './dto/rate-skill.dto';
import { PersonSkillResponse } from './dto/rating.response';
import { EmployeeSkillsService } from './employee-skills.service';

@ApiTags('Employee skills')
@RequiresScope('read', 'write')
@Controller('employees/:id/skills')
export class EmployeeSkillsController {
  constructor(private readonly employeeSkills: EmployeeSkillsService) {}

  @Get()
  @ApiOperation({ summary: "The employee's skills with their latest ratings, ordered by skillName" })
  @ApiEnvelope(PersonSkillResponse, { isArray: true })
  @ApiErrors(404)
  list(@OrgId() organisationId: string, @Param('id', new ParseIdPipe('Employee')) employeeId: string) {
    return this.employeeSkills.list(organisationId, employeeId);
  }

  @Put(':skillId')
  @ApiOperation({ summary: 'Add a rating, creating the employee skill when absent (emits skill.rated)' })
  @ApiEnvelope(PersonSkillResponse)
  @ApiErrors(400, 404)
  rate(
    @OrgId() organisationId: string,
    @Param('id', new ParseIdPipe('Employee')) employeeId: string,
    @Param('skillId', new ParseIdPipe('Skill')) skillId: string,
    @Body() body: RateSkillDto,
    @Write() write: WriteContext,
  ): Promise<PersonSkillResponse> {
    return this.employeeSkills.rate(organisationId, employeeId, skillId, body, write);
  }

  @Delete(':skillId')
  @ApiOperation({
    summary:
      'Remove the employee skill and all its ratings; more than 5 ratings need force=true; records ' +
      'employee_skill.deleted in the feed',
  })
  @ApiEnvelope(DeletedResponse)
  @ApiErrors(400, 404, 409)
  remove(
    @OrgId() organisationId: string,
    @Param('id', new ParseIdPipe('Employee')) employeeId: string,
    @Param('skillId', new ParseIdPipe('Skill')) skillId: string,
    @Query() query: DeleteEmployeeSkillQuery,
    @Write() write: WriteContext,
  ): Promise<DeletedResponse> {
    return this.employeeSkills.remove(organisationId, employeeId, skillId, query.force === true, write);
  }
}
