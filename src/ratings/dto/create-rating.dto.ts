import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { RateSkillDto } from './rate-skill.dto';

/** Body of POST /employees/{id}/ratings. */
export class CreateRatingDto extends RateSkillDto {
  @ApiProperty({ format: 'uuid', description: 'A skill of the organisation; unknown or malformed: 404' })
  @IsString()
  skillId: string;
}
