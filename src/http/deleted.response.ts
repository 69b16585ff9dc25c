import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The answer of a DELETE that removes a resource. */
@ApiSchema({ name: 'Deleted' })
export class DeletedResponse {
  @ApiProperty()
  deleted: boolean;
}
