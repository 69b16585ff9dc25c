import type { SkillResponse } from './dto/skill.response';

/** The feed-only events of the skills catalogue (no webhook carries them). */
declare module '../events/domain-events' {
  interface DomainEventMap {
    'skill.created': SkillResponse;
    /** The Skill after the change. */
    'skill.updated': SkillResponse;
    'skill.deleted': { id: string };
  }
}
