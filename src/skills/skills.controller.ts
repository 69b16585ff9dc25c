import { Body, Controller, Delete, Get, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { DeletedResponse } from '../common/dto/deleted.response';
import { ApiEnvelope, ApiErrors } from '../common/openapi/api-envelope.decorators';
import { Page } from '../common/pagination';
import { ParseIdPipe } from '../common/uuid';
import { CreateSkillDto } from './dto/create-skill.dto';
import { ListSkillsQuery } from './dto/list-skills.query';
import { SkillDetailResponse, SkillResponse } from './dto/skill.response';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { SkillsService } from './skills.service';

const SkillId = () => Param('id', new ParseIdPipe('Skill'));

@ApiTags('Skills')
@RequiresScope('read', 'write')
@Controller('skills')
export class SkillsController {
  constructor(private readonly skills: SkillsService) {}

  @Get()
  @ApiOperation({ summary: 'List skills, oldest first' })
  @ApiEnvelope(SkillResponse, { paginated: true })
  @ApiErrors(400)
  list(@OrgId() organisationId: string, @Query() query: ListSkillsQuery): Promise<Page<SkillResponse>> {
    return this.skills.list(organisationId, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create a skill (scale defaults: NUMERIC, 0 to 5)' })
  @ApiEnvelope(SkillResponse, { status: HttpStatus.CREATED })
  @ApiErrors(400, 409)
  create(@OrgId() organisationId: string, @Body() body: CreateSkillDto): Promise<SkillResponse> {
    return this.skills.create(organisationId, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A skill with the number of active employees linked to it' })
  @ApiEnvelope(SkillDetailResponse)
  @ApiErrors(404)
  get(@OrgId() organisationId: string, @SkillId() id: string): Promise<SkillDetailResponse> {
    return this.skills.get(organisationId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a skill' })
  @ApiEnvelope(SkillResponse)
  @ApiErrors(400, 404, 409)
  update(@OrgId() organisationId: string, @SkillId() id: string, @Body() body: UpdateSkillDto): Promise<SkillResponse> {
    return this.skills.update(organisationId, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a skill; 409 while employee ratings exist on it' })
  @ApiEnvelope(DeletedResponse)
  @ApiErrors(404, 409)
  remove(@OrgId() organisationId: string, @SkillId() id: string): Promise<DeletedResponse> {
    return this.skills.remove(organisationId, id);
  }
}
