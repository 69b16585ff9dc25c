/** The feed-only event of removing an employee skill (with its ratings), with or without force. */
declare module '../events/domain-events' {
  interface DomainEventMap {
    'employee_skill.deleted': { employeeId: string; skillId: string; personSkillId: string };
  }
}

export {};
