import { findInputProblem, MAX_JSON_DEPTH } from './input-checks';

function nested(depth: number): object {
  let value: object = {};
  for (let level = 1; level < depth; level++) value = { a: value };
  return value;
}

describe('findInputProblem', () => {
  it('accepts ordinary input', () => {
    expect(findInputProblem({ name: 'Ada', events: ['a', 'b'], nested: { ok: true, n: 1, none: null } })).toBeNull();
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__'])(
    'refuses a field named like the inherited member %s',
    (key) => {
      expect(findInputProblem(JSON.parse(`{"${key}": 1}`) as object)).toEqual({
        field: key,
        message: `property ${key} should not exist`,
      });
    },
  );

  it('names the field holding U+0000, at any depth', () => {
    expect(findInputProblem({ name: 'a\u0000b' })).toEqual({
      field: 'name',
      message: 'name must not contain the character U+0000',
    });
    expect(findInputProblem({ events: ['ok', 'x\u0000'] })?.field).toBe('events[1]');
    expect(findInputProblem({ outer: { inner: '\u0000' } })?.field).toBe('outer.inner');
  });

  it('names the field holding an unpaired surrogate, in values and in keys', () => {
    expect(findInputProblem({ businessEmail: 'a\ud800@example.com' })).toEqual({
      field: 'businessEmail',
      message: 'businessEmail must be well-formed Unicode (no unpaired surrogate)',
    });
    expect(findInputProblem({ ['k\udc00']: 1 })?.field).toBe('k\udc00');
    expect(findInputProblem({ name: '\ud83d\ude00' })).toBeNull();
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more`, () => {
    expect(findInputProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(findInputProblem(nested(MAX_JSON_DEPTH + 1))?.message).toMatch(/nested deeper than 32 levels/);
  });

  it('looks at a 100,000-level body without recursion', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as object;
    expect(findInputProblem({ deep })?.message).toMatch(/nested deeper/);
  });

  it('reports a problem at a shallower level before one nested deeper', () => {
    expect(findInputProblem({ first: { a: '\u0000' }, second: '\u0000' })?.field).toBe('second');
    expect(findInputProblem({ first: '\u0000', second: { a: '\u0000' } })?.field).toBe('first');
  });
});
