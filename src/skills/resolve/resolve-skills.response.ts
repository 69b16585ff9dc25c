import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MATCH_LEVELS, MatchLevel } from './skill-names.repository';
import { ResolvedMatch } from './skill-resolver';

const RESOLVED_MATCHES: ResolvedMatch[] = [...MATCH_LEVELS, 'ambiguous', 'none'];

@ApiSchema({ name: 'SkillRef' })
export class SkillRefResponse {
  @ApiProperty()
  id: string;
  @ApiProperty()
  name: string;
}

@ApiSchema({ name: 'SkillCandidate' })
export class SkillCandidateResponse {
  @ApiProperty()
  id: string;
  @ApiProperty()
  name: string;
  @ApiProperty({ enum: MATCH_LEVELS, description: 'What of the skill the name matched or is like' })
  matchedOn: MatchLevel;
  @ApiProperty({ minimum: 0, maximum: 1, description: '1 for an exact match; else trigram similarity (≥ 0.3)' })
  score: number;
}

@ApiSchema({ name: 'SkillResolution' })
export class SkillResolutionResponse {
  @ApiProperty({ description: 'The name as sent' })
  name: string;
  @ApiProperty({
    enum: RESOLVED_MATCHES,
    description: 'name > alias > hiddenAlias; ambiguous: several skills at the best level; none: no exact match',
  })
  match: ResolvedMatch;
  @ApiProperty({ type: SkillRefResponse, nullable: true, description: 'The skill matched; null unless one' })
  skill: SkillRefResponse | null;
  @ApiProperty({
    type: [SkillCandidateResponse],
    description: 'ambiguous: the skills matched; none: up to 3 suggestions, best first (never taken as a match)',
  })
  candidates: SkillCandidateResponse[];
}
