import { OmitType, PartialType } from '@nestjs/swagger';
import { GroupIdList } from '../../dto/catalogue-fields';
import { CreateSkillGroupDto } from './create-skill-group.dto';

/**
 * A partial update: only supplied fields change, each by the rules of POST /skill-groups (null clears description,
 * source and externalId, and is refused elsewhere); `parentIds` replaces the parents.
 */
export class UpdateSkillGroupDto extends PartialType(OmitType(CreateSkillGroupDto, ['parentIds'] as const), {
  skipNullProperties: false,
}) {
  @GroupIdList('Ids of the parent groups; a change that would make the group its own ancestor is 409')
  parentIds?: string[];
}
