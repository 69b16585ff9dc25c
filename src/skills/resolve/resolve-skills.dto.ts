import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** At most this many names in one POST /skills/resolve. */
export const MAX_RESOLVED_NAMES = 1000;

export class ResolveSkillsDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_RESOLVED_NAMES,
    description: 'Names to resolve (each 1–200 characters), answered in this order',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_RESOLVED_NAMES)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(200, { each: true })
  names: string[];
}
