import { Body, Controller, Delete, Get, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../../auth/org-id.decorator';
import { RequiresScope } from '../../auth/scopes';
import { Write } from '../../auth/write.decorator';
import { ParseIdPipe } from '../../database/uuid';
import { WriteContext } from '../../database/write-context';
import { DeletedResponse } from '../../http/deleted.response';
import { Idempotent } from '../../idempotency/idempotency.interceptor';
import { ApiEnvelope, ApiErrors } from '../../openapi/api-envelope.decorators';
import { Page } from '../../pagination/pagination';
import { ApiPreconditions, Preconditions, WritePreconditions } from '../../versions/preconditions';
import { CreateSkillGroupDto } from './dto/create-skill-group.dto';
import { ListSkillGroupsQuery } from './dto/list-skill-groups.query';
import { SkillGroupDetailResponse, SkillGroupResponse } from './dto/skill-group.response';
import { UpdateSkillGroupDto } from './dto/update-skill-group.dto';
import { SkillGroupsService } from './skill-groups.service';

const GroupId = () => Param('id', new ParseIdPipe('SkillGroup'));

@ApiTags('Skill groups')
@RequiresScope('read', 'write')
@Controller('skill-groups')
export class SkillGroupsController {
  constructor(private readonly groups: SkillGroupsService) {}

  @Get()
  @ApiOperation({ summary: 'List skill groups, oldest first' })
  @ApiEnvelope(SkillGroupResponse, { paginated: true })
  @ApiErrors(400, 404)
  list(@OrgId() organisationId: string, @Query() query: ListSkillGroupsQuery): Promise<Page<SkillGroupResponse>> {
    return this.groups.list(organisationId, query);
  }

  @Idempotent()
  @Post()
  @ApiOperation({ summary: 'Create a skill group; records skill_group.created in the feed' })
  @ApiEnvelope(SkillGroupResponse, { status: HttpStatus.CREATED })
  @ApiErrors(400, 404, 409)
  create(
    @OrgId() organisationId: string,
    @Body() body: CreateSkillGroupDto,
    @Write() write: WriteContext,
  ): Promise<SkillGroupResponse> {
    return this.groups.create(organisationId, body, write);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A skill group with the number of skills in it or in any group below it' })
  @ApiEnvelope(SkillGroupDetailResponse)
  @ApiErrors(404)
  get(@OrgId() organisationId: string, @GroupId() id: string): Promise<SkillGroupDetailResponse> {
    return this.groups.get(organisationId, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a skill group; 409 if it would become its own ancestor; records skill_group.updated',
  })
  @ApiEnvelope(SkillGroupResponse)
  @ApiPreconditions({ merges: true })
  @ApiErrors(400, 404, 409, 412, 428)
  update(
    @OrgId() organisationId: string,
    @GroupId() id: string,
    @Body() body: UpdateSkillGroupDto,
    @Write() write: WriteContext,
    @WritePreconditions({ merges: true }) preconditions: Preconditions,
  ): Promise<SkillGroupResponse> {
    return this.groups.update(organisationId, id, body, write, preconditions);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a skill group; 409 while it has child groups; its skills leave it; records skill_group.deleted',
  })
  @ApiEnvelope(DeletedResponse)
  @ApiPreconditions()
  @ApiErrors(400, 404, 409, 412, 428)
  remove(
    @OrgId() organisationId: string,
    @GroupId() id: string,
    @Write() write: WriteContext,
    @WritePreconditions() preconditions: Preconditions,
  ): Promise<DeletedResponse> {
    return this.groups.remove(organisationId, id, write, preconditions);
  }
}
