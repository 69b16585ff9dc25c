import { BulkItems } from '../../bulk/bulk';
import { CreateSkillDto } from './create-skill.dto';

/** Body of POST /skills/bulk. */
export class BulkSkillsDto {
  @BulkItems(
    CreateSkillDto,
    'Matched by name, case-insensitively: an unknown one is a POST /skills body and creates; a known one changes ' +
      'the fields given, as PATCH /skills/{id} (name included, so its case may change)',
  )
  items: unknown[];
}
