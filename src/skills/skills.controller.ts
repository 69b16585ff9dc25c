import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { Write } from '../auth/write.decorator';
import { ApiBulk, BulkResult } from '../bulk/bulk';
import { ParseIdPipe } from '../database/uuid';
import { WriteContext } from '../database/write-context';
import { DeletedResponse } from '../http/deleted.response';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import { ApiEnvelope, ApiErrors } from '../openapi/api-envelope.decorators';
import { Page } from '../pagination/pagination';
import { ApiPreconditions, Preconditions, WritePreconditions } from '../versions/preconditions';
import { BulkSkillsDto } from './dto/bulk-skills.dto';
import { CreateSkillDto } from './dto/create-skill.dto';
import { ListSkillsQuery } from './dto/list-skills.query';
import { SkillDetailResponse, SkillResponse } from './dto/skill.response';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { ResolveSkillsDto } from './resolve/resolve-skills.dto';
import { SkillResolutionResponse } from './resolve/resolve-skills.response';
import { SkillResolver } from './resolve/skill-resolver';
import { SkillsBulkService } from './skills-bulk.service';
import { SkillsService } from './skills.service';

const SkillId = () => Param('id', new ParseIdPipe('Skill'));

@ApiTags('Skills')
@RequiresScope('read', 'write')
@Controller('skills')
export class SkillsController {
  constructor(
    private readonly skills: SkillsService,
    private readonly bulk: SkillsBulkService,
    private readonly resolver: SkillResolver,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List skills, oldest first' })
  @ApiEnvelope(SkillResponse, { paginated: true })
  @ApiErrors(400, 404)
  list(@OrgId() organisationId: string, @Query() query: ListSkillsQuery): Promise<Page<SkillResponse>> {
    return this.skills.list(organisationId, query);
  }

  @Idempotent()
  @Post()
  @ApiOperation({ summary: 'Create a skill (scale defaults: NUMERIC, 0 to 5); records skill.created in the feed' })
  @ApiEnvelope(SkillResponse, { status: HttpStatus.CREATED })
  @ApiErrors(400, 404, 409)
  create(
    @OrgId() organisationId: string,
    @Body() body: CreateSkillDto,
    @Write() write: WriteContext,
  ): Promise<SkillResponse> {
    return this.skills.create(organisationId, body, write);
  }

  @Idempotent()
  @Post('bulk')
  @ApiOperation({
    summary: 'Create or change up to 1,000 skills, matched by name case-insensitively; one result per item',
  })
  @HttpCode(HttpStatus.OK)
  @ApiBulk(BulkSkillsDto, {
    request: {
      items: [
        { name: 'TypeScript', ratingScaleMin: 1, ratingScaleMax: 5 },
        { name: 'kotlin', description: 'JVM language' },
        { name: 'Go', ratingScaleMin: 5, ratingScaleMax: 1 },
      ],
    },
    response: {
      success: true,
      data: [
        { index: 0, status: 'created', id: '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e6f', error: null },
        { index: 1, status: 'unchanged', id: '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e70', error: null },
        {
          index: 2,
          status: 'failed',
          id: null,
          error: {
            code: 'VALIDATION_ERROR',
            message: 'ratingScaleMin (5) must not be greater than ratingScaleMax (1)',
            details: [
              { field: 'ratingScaleMin', message: 'ratingScaleMin (5) must not be greater than ratingScaleMax (1)' },
            ],
          },
        },
      ],
      meta: { created: 1, updated: 0, unchanged: 1, failed: 1 },
    },
  })
  upsertMany(
    @OrgId() organisationId: string,
    @Body() body: BulkSkillsDto,
    @Write() write: WriteContext,
  ): Promise<BulkResult> {
    return this.bulk.upsert(organisationId, body.items, write);
  }

  @Post('resolve')
  @RequiresScope('read')
  // Any POST accepts an Idempotency-Key (docs/api-decisions.md, "Safe retries"), this one too, though it changes nothing.
  @Idempotent()
  @ApiOperation({
    summary: 'Resolve up to 1,000 names to skills (name > alias > hidden alias), with suggestions; changes nothing',
  })
  @HttpCode(HttpStatus.OK)
  @ApiEnvelope(SkillResolutionResponse, { isArray: true })
  @ApiErrors(400)
  resolve(@OrgId() organisationId: string, @Body() body: ResolveSkillsDto): Promise<SkillResolutionResponse[]> {
    return this.resolver.resolve(organisationId, body.names);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A skill with the number of active employees linked to it' })
  @ApiEnvelope(SkillDetailResponse)
  @ApiErrors(404)
  get(@OrgId() organisationId: string, @SkillId() id: string): Promise<SkillDetailResponse> {
    return this.skills.get(organisationId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a skill; records skill.updated, with what changed, in the feed' })
  @ApiEnvelope(SkillResponse)
  @ApiPreconditions({ merges: true })
  @ApiErrors(400, 404, 409, 412, 428)
  update(
    @OrgId() organisationId: string,
    @SkillId() id: string,
    @Body() body: UpdateSkillDto,
    @Write() write: WriteContext,
    @WritePreconditions({ merges: true }) preconditions: Preconditions,
  ): Promise<SkillResponse> {
    return this.skills.update(organisationId, id, body, write, preconditions);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a skill; 409 while employee ratings exist on it; records skill.deleted in the feed',
  })
  @ApiEnvelope(DeletedResponse)
  @ApiPreconditions()
  @ApiErrors(400, 404, 409, 412, 428)
  remove(
    @OrgId() organisationId: string,
    @SkillId() id: string,
    @Write() write: WriteContext,
    @WritePreconditions() preconditions: Preconditions,
  ): Promise<DeletedResponse> {
    return this.skills.remove(organisationId, id, write, preconditions);
  }
}
