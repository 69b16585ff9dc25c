import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { Write } from '../auth/write.decorator';
import { ApiBulk, BulkResult } from '../bulk/bulk';
import { WriteContext } from '../database/write-context';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import { BulkRatingsDto } from './dto/bulk-ratings.dto';
import { RatingsBulkService } from './ratings-bulk.service';

@ApiTags('Ratings')
@RequiresScope('read', 'write')
@Controller('ratings')
export class RatingsBulkController {
  constructor(private readonly bulk: RatingsBulkService) {}

  @Idempotent()
  @Post('bulk')
  @ApiOperation({
    summary:
      'Add up to 1,000 ratings, each naming its employee (id or personnelNumber) and skill (id or name); ' +
      'one result per item (emits skill.rated for each, in item order)',
  })
  @HttpCode(HttpStatus.OK)
  @ApiBulk(BulkRatingsDto, {
    request: {
      items: [
        { personnelNumber: 'P-001', skillName: 'TypeScript', score: 4, ratingType: 'MANAGER_EVALUATION' },
        {
          employeeId: '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e70',
          skillId: '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e71',
          score: 3,
          ratingType: 'SELF_ASSESMENT',
          comment: 'after the course',
        },
        { personnelNumber: 'P-404', skillName: 'TypeScript', score: 2, ratingType: 'LLM_RATING' },
      ],
    },
    response: {
      success: true,
      data: [
        { index: 0, status: 'created', id: '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e80', error: null },
        { index: 1, status: 'created', id: '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e81', error: null },
        { index: 2, status: 'failed', id: null, error: { code: 'NOT_FOUND', message: 'Employee not found' } },
      ],
      meta: { created: 2, updated: 0, unchanged: 0, failed: 1 },
    },
  })
  create(
    @OrgId() organisationId: string,
    @Body() body: BulkRatingsDto,
    @Write() write: WriteContext,
  ): Promise<BulkResult> {
    return this.bulk.create(organisationId, body.items, write);
  }
}
