import { SqlConditions } from './sql-conditions';

describe('SqlConditions', () => {
  it('numbers the values of each condition in order and joins the conditions with AND', () => {
    const where = new SqlConditions()
      .and('e.organisation_id = ?', 'org')
      .and('e.left_at IS NULL')
      .and('e.created_at BETWEEN ? AND ?', 1, 2);
    expect(where.sql).toBe('e.organisation_id = $1 AND e.left_at IS NULL AND e.created_at BETWEEN $2 AND $3');
    expect(where.parameters).toEqual(['org', 1, 2]);
  });

  it('places LIMIT and OFFSET after the conditions, leaving the conditions’ parameters as they are', () => {
    const where = new SqlConditions().and('r.employee_id = ?', 'e');
    expect(where.page(20, 40)).toEqual({ sql: 'LIMIT $2 OFFSET $3', parameters: ['e', 20, 40] });
    expect(where.parameters).toEqual(['e']);
  });

  it('adds a keyset as one row comparison, > ascending and < descending, and nothing without one', () => {
    const ascending = new SqlConditions()
      .and('f.organisation_id = ?', 'org')
      .after(['f.created_at', 'f.id'], false, [1, 'x']);
    expect(ascending.sql).toBe('f.organisation_id = $1 AND (f.created_at, f.id) > ($2, $3)');
    expect(ascending.parameters).toEqual(['org', 1, 'x']);
    expect(new SqlConditions().after(['r.created_at', 'r.id'], true, [1, 'x']).sql).toBe(
      '(r.created_at, r.id) < ($1, $2)',
    );
    expect(new SqlConditions().and('true').after(['a'], false, null).sql).toBe('true');
  });

  it('refuses a keyset whose values and columns do not match', () => {
    expect(() => new SqlConditions().after(['a', 'b'], false, [1])).toThrow('1 values for 2 order columns');
  });

  it('refuses a condition whose placeholders and values do not match', () => {
    expect(() => new SqlConditions().and('a = ? AND b = ?', 1)).toThrow('2 placeholders for 1 values');
  });
});
