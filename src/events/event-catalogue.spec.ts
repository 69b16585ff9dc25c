import { DOMAIN_EVENT_NAMES, FEED_EVENT_NAMES } from './domain-events';
import { EVENT_CATALOGUE, EventCatalogue, eventRule } from './event-catalogue';

const employeeId = '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e6f';
const employee = { id: employeeId, firstName: 'Ada', lastName: 'Lovelace', businessEmail: 'ada@example.com' };

describe('EVENT_CATALOGUE', () => {
  it('gives webhooks the five events of the spec and the feed every event', () => {
    expect([...DOMAIN_EVENT_NAMES].sort()).toEqual([
      'employee.created',
      'employee.deactivated',
      'employee.updated',
      'position.updated',
      'skill.rated',
    ]);
    expect([...FEED_EVENT_NAMES].sort()).toEqual(Object.keys(EVENT_CATALOGUE).sort());
  });

  it.each(['employee.created', 'employee.updated', 'employee.deactivated', 'employee.erased'] as const)(
    'names the employee of %s and keeps only their id once erased',
    (name) => {
      const rule = EVENT_CATALOGUE[name] as EventCatalogue['employee.created'];
      expect(rule.subject(employee as never)).toBe(employeeId);
      expect(rule.redact(employee as never, employeeId)).toEqual({ id: employeeId });
    },
  );

  it.each(['skill.rated', 'employee_skill.deleted'] as const)(
    'names the employee of %s and keeps only the employee id once erased',
    (name) => {
      const data = { employeeId, skillId: 's', personSkillId: 'p', rating: { comment: 'private' } };
      const rule = eventRule(name)!;
      expect(rule.subject(data)).toBe(employeeId);
      expect(rule.redact(data, employeeId)).toEqual({ employeeId });
    },
  );

  it('names the person a position replaces, and keeps the position with their names null', () => {
    const position = { id: 'p', name: 'Head of Data', replacesPerson: { ...employee } };
    const rule = eventRule('position.updated')!;
    expect(rule.subject(position)).toBe(employeeId);
    expect(rule.subject({ ...position, replacesPerson: null })).toBeNull();
    expect(rule.redact(position, employeeId)).toEqual({
      ...position,
      replacesPerson: { ...employee, firstName: null, lastName: null },
    });
  });

  it.each(['skill.created', 'skill.updated', 'skill.deleted'] as const)('names no employee in %s', (name) => {
    const skill = { id: 's', name: 'Go' };
    expect(eventRule(name)!.subject(skill)).toBeNull();
    expect(eventRule(name)!.redact(skill, employeeId)).toEqual(skill);
  });

  it('has no rule for a name this release does not record', () => {
    expect(eventRule('employee.promoted')).toBeUndefined();
    expect(eventRule('toString')).toBeUndefined();
  });

  it('does not compile without an entry for every event name', () => {
    const { 'employee.deactivated': _left, ...incomplete } = EVENT_CATALOGUE;
    // @ts-expect-error -- 'employee.deactivated' is missing: a new employee.* event without its rule fails the same way
    const catalogue: EventCatalogue = incomplete;
    expect(Object.keys(catalogue)).not.toContain('employee.deactivated');
  });
});
