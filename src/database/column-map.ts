/** One column of a table: the property a row of it is read as, and the type its parameters are cast to. */
export interface Column<T> {
  property: keyof T & string;
  column: string;
  /** The PostgreSQL type of a parameter holding its value (an array of them: `type[]`). */
  type: string;
  /** A PATCH may change it: the SET list and the no-op comparison (`differs`) cover these. */
  changeable?: boolean;
}

/**
 * A unique index of a table beside its primary key, per organisation: its name and its column, compared
 * lower-case when `lower` (as the index does).
 */
export interface UniqueKey {
  constraint: string;
  column: string;
  lower?: boolean;
}

/**
 * A table's columns (but its organisation, which every statement binds as `$1`) in one list, in one order, from
 * which the repository's selects, its multi-row writes (one parameter array per column, unnested), its SET lists
 * and its no-op rule are all written: a column added here is read, written and compared everywhere at once. An
 * SQL function that takes the columns as arrays (insert_employees) takes them in this order.
 */
export class ColumnMap<T> {
  constructor(
    readonly columns: readonly Column<T>[],
    private readonly uniqueKeys: readonly UniqueKey[] = [],
  ) {}

  /**
   * The map whose updateOne and updateMany are guarded by `uniqueKeys`, given in the order PostgreSQL checks
   * their indexes (their creation order): a row that would take another row's unique value is not written, and
   * the index is answered instead (see GuardedRow).
   */
  guardedBy(uniqueKeys: readonly UniqueKey[]): ColumnMap<T> {
    return new ColumnMap(this.columns, uniqueKeys);
  }

  /** The map of these columns only, in the map's order. */
  pick<K extends keyof T & string>(...properties: K[]): ColumnMap<Pick<T, K>> {
    const picked = this.columns.filter((column): column is Column<T> & { property: K } =>
      (properties as string[]).includes(column.property),
    );
    return new ColumnMap<Pick<T, K>>(picked);
  }

  /** The map of the changeable columns only. */
  changeable(): ColumnMap<T> {
    return new ColumnMap(this.columns.filter((column) => column.changeable));
  }

  /** `alias.column AS "property", …`: rows come back under the properties' names, ready for the response mappers. */
  select(alias: string): string {
    return this.columns
      .map(({ column, property }) =>
        column === property ? `${alias}.${column}` : `${alias}.${column} AS "${property}"`,
      )
      .join(', ');
  }

  /** The column names, `prefix.` before each when given. */
  names(prefix?: string): string {
    return this.columns.map(({ column }) => (prefix ? `${prefix}.${column}` : column)).join(', ');
  }

  /** The rows' values as one array per column, in the map's order: the parameters of `unnest`. */
  arrays(rows: readonly T[]): unknown[][] {
    return this.columns.map(({ property }) => rows.map((row) => row[property]));
  }

  /** The row's values, in the map's order: the parameters of `cast`. */
  values(row: T): unknown[] {
    return this.columns.map(({ property }) => row[property]);
  }

  /** `$first, …`: one parameter per column from `$first` on, for a function whose parameters have their types. */
  placeholders(first: number): string {
    return this.columns.map((_column, index) => `$${first + index}`).join(', ');
  }

  /** `$first::type, …`: the parameters of `values` from `$first` on, each cast to its column's type. */
  cast(first: number): string[] {
    return this.columns.map(({ type }, index) => `$${first + index}::${type}`);
  }

  /** `unnest($first::type[], …) AS alias (column, …)`: the rows of `arrays`, bound from `$first` on. */
  unnest(first: number, alias: string): string {
    const arrays = this.columns.map(({ type }, index) => `$${first + index}::${type}[]`);
    return `unnest(${arrays.join(', ')}) AS ${alias} (${this.names()})`;
  }

  /** `column = value, …` for the changeable columns, `values` giving each column's value in the map's order. */
  set(values: readonly string[]): string {
    return this.indexedChangeable()
      .map(({ column, index }) => `${column} = ${values[index]}`)
      .join(', ');
  }

  /**
   * The no-op rule, for an UPDATE's WHERE (so it costs no round trip): some changeable column of `table` differs
   * from its new value, `values` giving each column's value in the map's order.
   */
  differs(table: string, values: readonly string[]): string {
    const changeable = this.indexedChangeable();
    const stored = changeable.map(({ column }) => `${table}.${column}`).join(', ');
    const given = changeable.map(({ index }) => values[index]).join(', ');
    return `(${stored}) IS DISTINCT FROM (${given})`;
  }

  /**
   * An UPDATE of one row of `table` (organisation `$1`, id `$2`) that writes its changeable columns (`$3` on, as
   * `changeable().values` gives them) and updated_at (the parameter after those), unless every changeable column
   * holds its value already: then it writes nothing (the no-op rule, in the UPDATE so it costs no round trip).
   * Answers the id it wrote as a SELECT over a WITH: a SELECT's rows are what TypeORM's query() documents. With
   * unique keys (see GuardedRow), a row another row's unique value would be written to is not written, and the
   * answer is the index instead.
   */
  updateOne(table: string): string {
    const changeable = this.changeable();
    const values = changeable.cast(3);
    const update = `UPDATE ${table} SET ${changeable.set(values)}, updated_at = $${3 + values.length}
          WHERE organisation_id = $1 AND id = $2 AND ${changeable.differs(table, values)}`;
    if (this.uniqueKeys.length === 0) {
      return `WITH written AS (
         ${update}
         RETURNING id
       )
       SELECT id FROM written`;
    }
    return `WITH conflict AS (
         SELECT ${this.takenKey(table, '$2::uuid', this.castAll(3, changeable))} AS constraint_name
       ), written AS (
         ${update} AND (SELECT constraint_name FROM conflict) IS NULL
         RETURNING id
       )
       SELECT id, NULL::text AS conflict FROM written
       UNION ALL SELECT NULL, constraint_name FROM conflict WHERE constraint_name IS NOT NULL`;
  }

  /**
   * updateOne for many rows, bound as one array per column from `$2` on (`arrays`); answers the ids it wrote. With
   * unique keys, when some row would take another row's unique value none is written: the answer is the index
   * of the first such row, in the arrays' order.
   */
  updateMany(table: string): string {
    const unnested = this.of('v');
    const update = `UPDATE ${table} t SET ${this.set(unnested)}, updated_at = v.updated_at
           FROM ${this.uniqueKeys.length === 0 ? this.unnest(2, 'v') : 'v'}
          WHERE t.organisation_id = $1 AND t.id = v.id AND ${this.differs('t', unnested)}`;
    if (this.uniqueKeys.length === 0) {
      return `WITH written AS (
         ${update}
         RETURNING t.id
       )
       SELECT id FROM written`;
    }
    const arrays = this.columns.map(({ type }, index) => `$${2 + index}::${type}[]`);
    return `WITH v AS (
         SELECT * FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS v (${this.names()}, position)
       ), conflict AS (
         SELECT constraint_name FROM (SELECT v.position, ${this.takenKey(table, 'v.id', unnested)} AS constraint_name FROM v) c
          WHERE constraint_name IS NOT NULL ORDER BY position LIMIT 1
       ), written AS (
         ${update} AND NOT EXISTS (SELECT FROM conflict)
         RETURNING t.id
       )
       SELECT id, NULL::text AS conflict FROM written
       UNION ALL SELECT NULL, constraint_name FROM conflict`;
  }

  /** `alias.column` for each column: the values of an unnest aliased `alias`, for `set` and `differs`. */
  of(alias: string): string[] {
    return this.columns.map(({ column }) => `${alias}.${column}`);
  }

  /**
   * The first unique key whose value (of `values`, given in the map's order) a row of `table` other than `id`
   * in organisation `$1` has, as its index's name; NULL when none has.
   */
  private takenKey(table: string, id: string, values: readonly string[]): string {
    const taken = this.uniqueKeys.map(({ constraint, column, lower }) => {
      const value = values[this.columns.findIndex((each) => each.column === column)];
      const equal = lower ? `lower(o.${column}) = lower(${value})` : `o.${column} = ${value}`;
      return `WHEN EXISTS (SELECT FROM ${table} o WHERE o.organisation_id = $1 AND o.id <> ${id} AND ${equal}) THEN '${constraint}'`;
    });
    return `CASE ${taken.join(' ')} END`;
  }

  /** `cast` of `changeable`'s columns from `$first` on, placed at their index in this map (others empty). */
  private castAll(first: number, changeable: ColumnMap<T>): string[] {
    const casts = changeable.cast(first);
    return this.columns.map((column) => {
      const index = changeable.columns.indexOf(column);
      return index < 0 ? '' : casts[index];
    });
  }

  private indexedChangeable(): Array<Column<T> & { index: number }> {
    return this.columns.map((column, index) => ({ ...column, index })).filter(({ changeable }) => changeable);
  }
}
