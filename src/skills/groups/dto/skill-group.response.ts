import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { SkillGroupRefResponse } from '../../dto/skill-group-ref.response';
import { SkillGroupRef } from '../../dto/skill.response';

@ApiSchema({ name: 'SkillGroup' })
export class SkillGroupResponse {
  @ApiProperty()
  id: string;
  @ApiProperty({ description: 'Not unique: a group is told apart by its id, its parents and its externalId' })
  name: string;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 50 })
  source: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 500 })
  externalId: string | null;
  @ApiProperty({ type: [SkillGroupRefResponse], description: 'The parent groups, by name' })
  parents: SkillGroupRefResponse[];
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      '1 at creation, +1 at every change of the group itself (a no-op PATCH changes nothing); sent as the ETag, ' +
      'and what If-Match and Base-Version name',
  })
  version: number;
}

@ApiSchema({ name: 'SkillGroupDetail' })
export class SkillGroupDetailResponse extends SkillGroupResponse {
  @ApiProperty({ type: 'integer', description: 'Skills in this group or in any group below it, each once' })
  skillCount: number;
}

/** A skill group as its repository reads it. */
export interface SkillGroupRecord {
  id: string;
  name: string;
  description: string | null;
  source: string | null;
  externalId: string | null;
  parents: SkillGroupRef[];
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

export function toSkillGroupResponse(group: SkillGroupRecord): SkillGroupResponse {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    source: group.source,
    externalId: group.externalId,
    parents: group.parents.map(({ id, name }) => ({ id, name })),
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
    version: group.version,
  };
}
