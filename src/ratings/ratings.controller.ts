import { Body, Controller, Get, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { Write } from '../auth/write.decorator';
import { ParseIdPipe } from '../database/uuid';
import { WriteContext } from '../database/write-context';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import { ApiEnvelope, ApiErrors } from '../openapi/api-envelope.decorators';
import { Page } from '../pagination/pagination';
import { CreateRatingDto } from './dto/create-rating.dto';
import { ListRatingsQuery } from './dto/list-ratings.query';
import { RatingResponse } from './dto/rating.response';
import { RatingsService } from './ratings.service';

@ApiTags('Ratings')
@RequiresScope('read', 'write')
@Controller('employees/:id/ratings')
export class RatingsController {
  constructor(private readonly ratings: RatingsService) {}

  @Get()
  @ApiOperation({ summary: "The employee's ratings, newest first" })
  @ApiEnvelope(RatingResponse, { paginated: true })
  @ApiErrors(400, 404)
  list(
    @OrgId() organisationId: string,
    @Param('id', new ParseIdPipe('Employee')) employeeId: string,
    @Query() query: ListRatingsQuery,
  ): Promise<Page<RatingResponse>> {
    return this.ratings.list(organisationId, employeeId, query);
  }

  @Idempotent()
  @Post()
  @ApiOperation({ summary: 'Add a rating, creating the employee skill when absent (emits skill.rated)' })
  @ApiEnvelope(RatingResponse, { status: HttpStatus.CREATED })
  @ApiErrors(400, 404)
  create(
    @OrgId() organisationId: string,
    @Param('id', new ParseIdPipe('Employee')) employeeId: string,
    @Body() body: CreateRatingDto,
    @Write() write: WriteContext,
  ): Promise<RatingResponse> {
    const { skillId, ...rating } = body;
    return this.ratings.rate(organisationId, employeeId, skillId, rating, write);
  }
}
