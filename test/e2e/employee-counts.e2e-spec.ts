import { Client } from 'pg';
import { EntityManager } from 'typeorm';
import { newId } from '../../src/database/uuid';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { dataSourceOf } from '../support/app';
import { createEmployee, unique } from '../support/people.factory';
import { has, itIfPostgres } from '../support/requirements';
import { useTestApp } from '../support/use-test-app';

/** Where the counts trigger keeps the slot a transaction writes to; a test sets it to choose the slot. */
const SLOT_SETTING = 'skills.employee_count_slot';

type Query = (sql: string, parameters?: unknown[]) => Promise<unknown>;

/** Inserts an employee row in raw SQL, so the trigger runs exactly as it does for any writer. */
function insertEmployee(query: Query, organisationId: string): Promise<unknown> {
  const personnelNumber = unique('raw');
  return query(
    `INSERT INTO employees (id, organisation_id, personnel_number, first_name, last_name, business_email, created_at, updated_at)
     VALUES ($1, $2, $3, 'Raw', 'Row', $4, now(), now())`,
    [newId(), organisationId, personnelNumber, `${personnelNumber}@example.com`],
  );
}

describe('employee counts (organisation_employee_counts slots)', () => {
  const suite = useTestApp();

  const { get, del, patch } = suite.api;

  const sql = <T>(text: string, parameters: unknown[] = []) => dataSourceOf(suite.app).query<T>(text, parameters);
  const inTransaction = (work: (query: Query) => Promise<unknown>) =>
    dataSourceOf(suite.app).transaction((manager: EntityManager) =>
      work((text, parameters) => manager.query(text, parameters)),
    );

  /** meta.total of the unfiltered, isActive=true and isActive=false lists. */
  const totals = async () => {
    const lists = ['', '?isActive=true', '?isActive=false'].map((filter) =>
      get<EmployeeResponse[]>(`/employees${filter}`).expect(200),
    );
    return (await Promise.all(lists)).map((response) => response.body.meta.total);
  };
  /** The same three numbers, counted from the employees themselves. */
  const counted = async (organisationId = suite.tenant.organisationId) => {
    const [row] = await sql<{ total: number; active: number }[]>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE left_at IS NULL))::int AS active
         FROM employees WHERE organisation_id = $1`,
      [organisationId],
    );
    return [row.total, row.active, row.total - row.active];
  };
  const slotRows = (organisationId = suite.tenant.organisationId) =>
    sql<{ slot: number; total: number }[]>(
      `SELECT slot, total::int AS total FROM organisation_employee_counts WHERE organisation_id = $1 ORDER BY slot`,
      [organisationId],
    );

  it('keep list totals exact under concurrent creates, deactivations and reactivations', async () => {
    const first = await Promise.all(Array.from({ length: 24 }, () => createEmployee(suite.app, suite.tenant)));
    const [leaving, staying] = [first.slice(0, 12), first.slice(12)];
    await Promise.all([
      ...leaving.map((employee) => del(`/employees/${employee.id}`).expect(200)),
      ...Array.from({ length: 6 }, () => createEmployee(suite.app, suite.tenant)),
    ]);
    await Promise.all([
      ...leaving.slice(0, 4).map((employee) => patch(`/employees/${employee.id}`, { leftAt: null }).expect(200)),
      ...staying.slice(0, 2).map((employee) => del(`/employees/${employee.id}`).expect(200)),
    ]);

    // 30 employees; 12 deactivated, 4 of them back, 2 more gone.
    expect(await counted()).toEqual([30, 20, 10]);
    expect(await totals()).toEqual([30, 20, 10]);
    // Each database session writes its own slot: the pool's sessions did not all meet on one row. (The
    // embedded database is one session, so there one slot is right.)
    expect((await slotRows()).length).toBeGreaterThan(has('postgres') ? 1 : 0);
  });

  it('keep one slot per transaction, however many employees it writes', async () => {
    await inTransaction(async (query) => {
      for (let i = 0; i < 5; i++) await insertEmployee(query, suite.tenant.organisationId);
    });
    expect(await slotRows()).toEqual([{ slot: expect.any(Number), total: 5 }]);
    expect(await totals()).toEqual([5, 5, 0]);
  });

  it('leave no counts rows behind when the organisation is deleted', async () => {
    await Promise.all(Array.from({ length: 8 }, () => createEmployee(suite.app, suite.tenant)));
    expect((await slotRows()).length).toBeGreaterThan(0);

    await sql(`DELETE FROM organisations WHERE id = $1`, [suite.tenant.organisationId]);

    expect(await slotRows()).toEqual([]);
  });

  it("never re-create counts in the cascade of an organisation's deletion, from a slot without a row", async () => {
    await inTransaction(async (query) => {
      await query(`SELECT set_config('${SLOT_SETTING}', '1', true)`);
      await insertEmployee(query, suite.tenant.organisationId);
    });
    // The deleting transaction's slot has no row: the cascaded employee's decrement must not insert one.
    await inTransaction(async (query) => {
      await query(`SELECT set_config('${SLOT_SETTING}', '2', true)`);
      await query(`DELETE FROM organisations WHERE id = $1`, [suite.tenant.organisationId]);
    });
    expect(await slotRows()).toEqual([]);
  });

  describe('between transactions (two sessions)', () => {
    let sessions: Client[];

    beforeEach(() => {
      sessions = [];
    });
    afterEach(async () => {
      await Promise.all(sessions.map((session) => session.end()));
    });

    /** A session in an open transaction that writes to the given slot and waits at most 500 ms on a lock. */
    const openTransaction = async (slot: number): Promise<Client> => {
      const session = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      sessions.push(session);
      await session.connect();
      await session.query('BEGIN');
      await session.query(`SELECT set_config('${SLOT_SETTING}', $1, true)`, [String(slot)]);
      await session.query(`SET LOCAL lock_timeout = '500ms'`);
      return session;
    };
    const insertIn = (session: Client) =>
      insertEmployee((text, parameters) => session.query(text, parameters), suite.tenant.organisationId);

    itIfPostgres('let a second insert in one organisation proceed while the first is uncommitted', async () => {
      const [first, second] = [await openTransaction(1), await openTransaction(2)];
      await insertIn(first);
      // Without slots both inserts update the organisation's one counts row: this one would wait for
      // the first transaction and fail on the lock timeout.
      await insertIn(second);
      await second.query('COMMIT');
      await first.query('COMMIT');
      expect(await totals()).toEqual([2, 2, 0]);
      expect((await slotRows()).map((row) => row.slot)).toEqual([1, 2]);
    });

    itIfPostgres('make a second insert on the same slot wait, as the test above would see', async () => {
      const [first, second] = [await openTransaction(1), await openTransaction(1)];
      await insertIn(first);
      await expect(insertIn(second)).rejects.toThrow(/lock timeout/);
      await second.query('ROLLBACK');
      await first.query('COMMIT');
      expect(await totals()).toEqual([1, 1, 0]);
    });
  });
});
