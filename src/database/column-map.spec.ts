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
});
