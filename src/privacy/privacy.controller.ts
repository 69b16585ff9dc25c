import { Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { Write } from '../auth/write.decorator';
import { ParseIdPipe } from '../database/uuid';
import { WriteContext } from '../database/write-context';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import { ApiEnvelope, ApiErrors } from '../openapi/api-envelope.decorators';
import { ApiPreconditions, Preconditions, WritePreconditions } from '../versions/preconditions';
import { ErasedEmployeeResponse, PersonalDataResponse } from './dto/personal-data.response';
import { PrivacyService } from './privacy.service';

const EmployeeId = () => Param('id', new ParseIdPipe('Employee'));

@ApiTags('Employees')
@RequiresScope('privacy')
@Controller('employees')
export class PrivacyController {
  constructor(private readonly privacy: PrivacyService) {}

  @Idempotent()
  @Post(':id/erase')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary:
      "Erase an employee's personal data for good, with every kept copy redacted (emits employee.erased to the " +
      'feed); the id is unknown afterwards',
  })
  @ApiEnvelope(ErasedEmployeeResponse)
  @ApiPreconditions()
  @ApiErrors(404, 412)
  erase(
    @OrgId() organisationId: string,
    @EmployeeId() id: string,
    @Write() write: WriteContext,
    @WritePreconditions() preconditions: Preconditions,
  ): Promise<ErasedEmployeeResponse> {
    return this.privacy.erase(organisationId, id, write, undefined, preconditions);
  }

  @Get(':id/personal-data')
  @ApiOperation({ summary: 'Everything the service holds about an employee (a subject-access request)' })
  @ApiEnvelope(PersonalDataResponse)
  @ApiErrors(404)
  personalData(@OrgId() organisationId: string, @EmployeeId() id: string): Promise<PersonalDataResponse> {
    return this.privacy.personalData(organisationId, id);
  }
}
