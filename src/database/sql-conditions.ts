/**
 * A WHERE clause built filter by filter, its values bound as numbered parameters ($1, $2, …) so no
 * value is ever spliced into the SQL. A `?` in a condition stands for the next of its values (so a
 * condition must not use `?` otherwise, as jsonb operators do).
 */
export class SqlConditions {
  private readonly conditions: string[] = [];
  private readonly values: unknown[] = [];

  and(condition: string, ...values: unknown[]): this {
    const placeholders = condition.split('?').length - 1;
    if (placeholders !== values.length) {
      throw new Error(`"${condition}" has ${placeholders} placeholders for ${values.length} values`);
    }
    let next = 0;
    this.conditions.push(condition.replace(/\?/g, () => this.bind(values[next++])));
    return this;
  }

  /**
   * Keyset paging: only rows after `after` in the order of `columns` (all ascending, or all descending),
   * as one row comparison, which a b-tree index on those columns answers as a range. Nothing when `after`
   * is null (the first page).
   */
  after(columns: string[], descending: boolean, after: unknown[] | null): this {
    if (after === null) return this;
    if (after.length !== columns.length) {
      throw new Error(`A keyset of ${after.length} values for ${columns.length} order columns`);
    }
    const placeholders = columns.map(() => '?').join(', ');
    return this.and(`(${columns.join(', ')}) ${descending ? '<' : '>'} (${placeholders})`, ...after);
  }

  /** The conditions joined with AND. */
  get sql(): string {
    return this.conditions.join(' AND ');
  }

  get parameters(): unknown[] {
    return [...this.values];
  }

  /** `LIMIT $n OFFSET $n+1` after the conditions' own parameters, and the parameters of the whole query. */
  page(limit: number, offset: number): { sql: string; parameters: unknown[] } {
    const count = this.values.length;
    return { sql: `LIMIT $${count + 1} OFFSET $${count + 2}`, parameters: [...this.values, limit, offset] };
  }

  private bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
