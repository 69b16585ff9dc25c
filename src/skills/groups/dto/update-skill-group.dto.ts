import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../../../validation/optional-not-null';
import { ExternalField, GroupIdList } from '../../dto/catalogue-fields';

/** A partial update: only supplied fields change; `parentIds` replaces the parents. */
export class UpdateSkillGroupDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 4000 })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  description?: string | null;

  @ExternalField(50, 'The taxonomy the group comes from, e.g. esco')
  source?: string | null;

  @ExternalField(500, 'Its id in that taxonomy; source + externalId is unique in the organisation')
  externalId?: string | null;

  @GroupIdList('Ids of the parent groups; a change that would make the group its own ancestor is 409')
  parentIds?: string[];
}
