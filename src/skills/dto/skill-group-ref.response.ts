import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** A skill group as a skill or another group names it. */
@ApiSchema({ name: 'SkillGroupRef' })
export class SkillGroupRefResponse {
  @ApiProperty()
  id: string;
  @ApiProperty()
  name: string;
}
