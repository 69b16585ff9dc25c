import { ColumnMap } from './column-map';

interface Thing {
  id: string;
  name: string;
  size: number | null;
  createdAt: Date;
}

const THINGS = new ColumnMap<Thing>([
  { property: 'id', column: 'id', type: 'uuid' },
  { property: 'name', column: 'name', type: 'text', changeable: true },
  { property: 'size', column: 'size', type: 'integer', changeable: true },
  { property: 'createdAt', column: 'created_at', type: 'timestamptz' },
]);

const AT = new Date('2026-01-31T09:00:00.000Z');

describe('ColumnMap', () => {
  it('selects each column under its property name', () => {
    expect(THINGS.select('t')).toBe('t.id, t.name, t.size, t.created_at AS "createdAt"');
    expect(THINGS.pick('id', 'createdAt').select('t')).toBe('t.id, t.created_at AS "createdAt"');
  });

  it('binds rows as one typed array per column, and one row as typed parameters, in the map order', () => {
    const rows: Thing[] = [
      { id: 'a', name: 'A', size: 1, createdAt: AT },
      { id: 'b', name: 'B', size: null, createdAt: AT },
    ];
    expect(THINGS.arrays(rows)).toEqual([
      ['a', 'b'],
      ['A', 'B'],
      [1, null],
      [AT, AT],
    ]);
    expect(THINGS.unnest(2, 'v')).toBe(
      'unnest($2::uuid[], $3::text[], $4::integer[], $5::timestamptz[]) AS v (id, name, size, created_at)',
    );
    expect(THINGS.placeholders(2)).toBe('$2, $3, $4, $5');
    expect(THINGS.values(rows[1])).toEqual(['b', 'B', null, AT]);
    expect(THINGS.cast(3)).toEqual(['$3::uuid', '$4::text', '$5::integer', '$6::timestamptz']);
  });

  it('writes and compares only the changeable columns, with the values given in the map order', () => {
    expect(THINGS.set(THINGS.of('v'))).toBe('name = v.name, size = v.size');
    expect(THINGS.differs('t', THINGS.of('v'))).toBe('(t.name, t.size) IS DISTINCT FROM (v.name, v.size)');
    const changeable = THINGS.changeable();
    expect(changeable.set(changeable.cast(3))).toBe('name = $3::text, size = $4::integer');
    expect(changeable.names('t')).toBe('t.name, t.size');
  });

  it('writes the UPDATEs of one row and of many that skip a row whose changeable columns hold their values', () => {
    const stamped = new ColumnMap<Thing & { updatedAt: Date }>([
      ...THINGS.columns,
      { property: 'updatedAt', column: 'updated_at', type: 'timestamptz' },
    ]);
    const squashed = (sql: string) => sql.replace(/\s+/g, ' ');
    expect(squashed(stamped.updateOne('things'))).toBe(
      'WITH written AS ( UPDATE things SET name = $3::text, size = $4::integer, updated_at = $5 ' +
        'WHERE organisation_id = $1 AND id = $2 AND (things.name, things.size) IS DISTINCT FROM ($3::text, $4::integer) ' +
        'RETURNING id ) SELECT id FROM written',
    );
    expect(squashed(stamped.updateMany('things'))).toBe(
      'WITH written AS ( UPDATE things t SET name = v.name, size = v.size, updated_at = v.updated_at ' +
        'FROM unnest($2::uuid[], $3::text[], $4::integer[], $5::timestamptz[], $6::timestamptz[]) ' +
        'AS v (id, name, size, created_at, updated_at) ' +
        'WHERE t.organisation_id = $1 AND t.id = v.id AND (t.name, t.size) IS DISTINCT FROM (v.name, v.size) ' +
        'RETURNING t.id ) SELECT id FROM written',
    );
  });

  it('guards the UPDATEs by unique keys: another row holding a new value is answered, and nothing is written', () => {
    const guarded = new ColumnMap<Thing & { updatedAt: Date }>([
      ...THINGS.columns,
      { property: 'updatedAt', column: 'updated_at', type: 'timestamptz' },
    ]).guardedBy([{ constraint: 'things_name_key', column: 'name', lower: true }]);
    const squashed = (sql: string) => sql.replace(/\s+/g, ' ');
    expect(squashed(guarded.updateOne('things'))).toBe(
      'WITH conflict AS ( SELECT CASE WHEN EXISTS (SELECT FROM things o WHERE o.organisation_id = $1 ' +
        "AND o.id <> $2::uuid AND lower(o.name) = lower($3::text)) THEN 'things_name_key' END AS constraint_name " +
        '), written AS ( UPDATE things SET name = $3::text, size = $4::integer, updated_at = $5 ' +
        'WHERE organisation_id = $1 AND id = $2 AND (things.name, things.size) IS DISTINCT FROM ($3::text, $4::integer) ' +
        'AND (SELECT constraint_name FROM conflict) IS NULL RETURNING id ) ' +
        'SELECT id, NULL::text AS conflict FROM written ' +
        'UNION ALL SELECT NULL, constraint_name FROM conflict WHERE constraint_name IS NOT NULL',
    );
    const many = squashed(guarded.updateMany('things'));
    expect(many).toContain(
      'WITH v AS ( SELECT * FROM unnest($2::uuid[], $3::text[], $4::integer[], $5::timestamptz[], $6::timestamptz[]) ' +
        'WITH ORDINALITY AS v (id, name, size, created_at, updated_at, position) )',
    );
    expect(many).toContain("AND o.id <> v.id AND lower(o.name) = lower(v.name)) THEN 'things_name_key' END");
    expect(many).toContain('ORDER BY position LIMIT 1');
    expect(many).toContain('AND NOT EXISTS (SELECT FROM conflict) RETURNING t.id');
  });
});
