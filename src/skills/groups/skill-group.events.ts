import type { SkillGroupResponse } from './dto/skill-group.response';

/** The feed-only events of skill groups (no webhook carries them). */
declare module '../../events/domain-events' {
  interface DomainEventMap {
    'skill_group.created': SkillGroupResponse;
    /** The SkillGroup after the change. */
    'skill_group.updated': SkillGroupResponse;
    'skill_group.deleted': { id: string };
  }
}
