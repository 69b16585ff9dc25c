import { ApiSchema, IntersectionType, PickType } from '@nestjs/swagger';
import { BulkItems } from '../../bulk/bulk';
import { BaseVersionItem, IfMatchItem } from '../../versions/item-versions';
import { CreateSkillDto } from './create-skill.dto';
import { UpdateSkillDto } from './update-skill.dto';

/**
 * An item that changes a known skill: the PATCH body, and the version it is based on, as If-Match (`ifMatch`,
 * strict) or Base-Version (`baseVersion`, a merge) would name it on PATCH /skills/{id}.
 */
export class BulkSkillUpdateDto extends UpdateSkillDto {
  @IfMatchItem('skill')
  ifMatch?: number;

  @BaseVersionItem()
  baseVersion?: number;
}

/**
 * The schema of an item, for the document only: each item is validated as a CreateSkillDto when its name is
 * unknown, else as a BulkSkillUpdateDto.
 */
@ApiSchema({
  name: 'BulkSkillItem',
  description:
    'An unknown name: a POST /skills body. A known one: the fields to change, as PATCH /skills/{id}, and ' +
    'optionally ifMatch or baseVersion',
})
export class BulkSkillItemSchema extends IntersectionType(
  CreateSkillDto,
  PickType(BulkSkillUpdateDto, ['ifMatch', 'baseVersion'] as const),
) {}

/** Body of POST /skills/bulk. */
export class BulkSkillsDto {
  @BulkItems(
    BulkSkillItemSchema,
    'Matched by name, case-insensitively: an unknown one is a POST /skills body and creates; a known one changes ' +
      'the fields given, as PATCH /skills/{id} (name included, so its case may change)',
  )
  items: unknown[];
}
