import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { runCli } from '../../src/cli/run-cli';
import { cliWrite } from '../../src/database/write-context';
import { Employee } from '../../src/employees/entities/employee.entity';
import { DomainEventMap, DomainEvents } from '../../src/events/domain-events';
import { PositionDetailResponse, PositionResponse } from '../../src/positions/dto/position.response';
import { Position } from '../../src/positions/entities/position.entity';
import { parsePositionsFile } from '../../src/positions/import/positions-file';
import { PositionsImportService } from '../../src/positions/import/positions-import.service';
import { Skill } from '../../src/skills/entities/skill.entity';
import { apiClient } from '../support/api-client';
import { createTenant, dataSourceOf, TestTenant, testConfig } from '../support/app';
import { statementsSent } from '../support/count-queries';
import { PositionsFixtures } from '../support/positions-fixtures';
import { useTestApp } from '../support/use-test-app';

interface Published {
  organisationId: string;
  name: string;
  data: DomainEventMap['position.updated'];
  inTransaction: boolean;
}

const directory = mkdtempSync(join(tmpdir(), 'positions-import-'));
let fileCount = 0;

function writePositionsFile(content: unknown): string {
  const path = join(directory, `positions-${fileCount++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** Runs a command in-process, as an operator would, and captures what it prints. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (chunk: string) => (stdout += chunk), stderr: (chunk: string) => (stderr += chunk) };
  const code = await runCli(argv, io, testConfig());
  return { code, stdout, stderr };
}

function onlyJsonObject(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

describe('positions import command', () => {
  const suite = useTestApp({ tenant: 'none' });
  let dataSource: DataSource;
  let published: Published[];

  beforeAll(async () => {
    dataSource = dataSourceOf(suite.app);
  });

  // The command runs its own application context; spying on the class sees its publications too.
  const originalPublish = DomainEvents.prototype.publish;
  beforeEach(() => {
    published = [];
    jest.spyOn(DomainEvents.prototype, 'publish').mockImplementation(async function (
      this: DomainEvents,
      manager: EntityManager,
      organisationId,
      name,
      data,
      at,
    ) {
      published.push({
        organisationId,
        name,
        data: JSON.parse(JSON.stringify(data)),
        inTransaction: manager.queryRunner?.isTransactionActive === true,
      });
      return originalPublish.call(this, manager, organisationId, name, data, at);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  interface World {
    tenant: TestTenant;
    fixtures: PositionsFixtures;
    alice: Employee;
    bob: Employee;
    carol: Employee;
    accounting: Skill;
    budgeting: Skill;
  }

  async function world(): Promise<World> {
    const tenant = await createTenant(suite.app, 'Import');
    const fixtures = new PositionsFixtures(dataSource, tenant.organisationId);
    return {
      tenant,
      fixtures,
      alice: await fixtures.employee({ personnelNumber: 'P-100', firstName: 'Alice', lastName: 'Archer' }),
      bob: await fixtures.employee({ personnelNumber: 'P-200', firstName: 'Bob', lastName: 'Baker' }),
      carol: await fixtures.employee({ personnelNumber: 'P-300', firstName: 'Carol', lastName: 'Cook' }),
      accounting: await fixtures.skill('Accounting'),
      budgeting: await fixtures.skill('Budgeting', { ratingScaleMin: 1, ratingScaleMax: 10 }),
    };
  }

  const controller = {
    ref: 'FIN-1',
    name: 'Controller',
    description: 'Keeps the books',
    department: 'Finance',
    status: 'OPEN',
    mustBeFilledBy: '2026-01-31',
    replacesPersonnelNumber: 'P-100',
    requiredSkills: [
      { skillName: 'budgeting', minimumRating: 7 },
      { skillName: 'ACCOUNTING', minimumRating: 4 },
    ],
    possibleReplacements: [
      { candidatePersonnelNumber: 'P-200', readyAt: '2026-03-01T09:00:00+02:00', status: 'PROPOSED' },
      { candidatePersonnelNumber: 'P-300', readyAt: '2026-02-01T00:00:00Z', status: 'APPROVED' },
    ],
  };
  const clerk = { ref: 'FIN-2', name: 'Clerk', status: 'IN_PROGRESS', requiredSkills: [], possibleReplacements: [] };

  /** GET as the tenant, which must answer 200; typed by the `data` it answers. */
  const get = <T>(tenant: TestTenant, path: string) =>
    apiClient(
      () => suite.app,
      () => tenant,
    )
      .get<T>(path)
      .expect(200);
  const countPositions = async (organisationId: string) =>
    dataSource.getRepository(Position).countBy({ organisationId });

  it('creates positions, reports the counts as one JSON object, and serves them through the API', async () => {
    const { tenant, alice, bob, carol, accounting, budgeting } = await world();
    const result = await cli(
      'positions',
      'import',
      writePositionsFile([controller, clerk]),
      '--org',
      tenant.organisationId,
      '--json',
    );

    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(onlyJsonObject(result.stdout)).toEqual({ created: 2, updated: 0, unchanged: 0 });

    const list = (await get<PositionResponse[]>(tenant, '/positions')).body.data;
    expect(list).toEqual([
      {
        id: expect.any(String),
        name: 'Controller',
        description: 'Keeps the books',
        department: 'Finance',
        status: 'OPEN',
        mustBeFilledBy: '2026-01-31T00:00:00.000Z',
        replacesPerson: { id: alice.id, firstName: 'Alice', lastName: 'Archer' },
        requiredSkills: [
          { skillId: accounting.id, skillName: 'Accounting', minimumRating: 4 },
          { skillId: budgeting.id, skillName: 'Budgeting', minimumRating: 7 },
        ],
      },
      {
        id: expect.any(String),
        name: 'Clerk',
        description: null,
        department: null,
        status: 'IN_PROGRESS',
        mustBeFilledBy: null,
        replacesPerson: null,
        requiredSkills: [],
      },
    ]);

    const detail = (await get<PositionDetailResponse>(tenant, `/positions/${list[0].id}`)).body.data;
    expect(detail.possibleReplacements).toEqual([
      {
        replacementId: expect.any(String),
        candidate: { id: carol.id, firstName: 'Carol', lastName: 'Cook' },
        readyAt: '2026-02-01T00:00:00.000Z',
        status: 'APPROVED',
        skillsGap: [
          { skillId: accounting.id, skillName: 'Accounting', minimumRating: 4, currentScore: null, gap: 4 },
          { skillId: budgeting.id, skillName: 'Budgeting', minimumRating: 7, currentScore: null, gap: 7 },
        ],
      },
      expect.objectContaining({
        candidate: { id: bob.id, firstName: 'Bob', lastName: 'Baker' },
        readyAt: '2026-03-01T07:00:00.000Z',
        status: 'PROPOSED',
      }),
    ]);

    // One position.updated per created position, inside the import's transaction, carrying the API's Position.
    expect(published).toEqual([
      { organisationId: tenant.organisationId, name: 'position.updated', data: list[0], inTransaction: true },
      { organisationId: tenant.organisationId, name: 'position.updated', data: list[1], inTransaction: true },
    ]);
  });

  it('prints a line for a person without --json and accepts the organisation by name', async () => {
    const { tenant } = await world();
    const organisation = await dataSource.query(`SELECT name FROM organisations WHERE id = $1`, [
      tenant.organisationId,
    ]);
    const result = await cli('positions', 'import', writePositionsFile([clerk]), '--org', organisation[0].name);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Imported positions: 1 created, 0 updated, 0 unchanged\n');
  });

  it('records its events as made by the command line: actor cli, requestId null, no traceparent', async () => {
    const { tenant } = await world();
    const result = await cli('positions', 'import', writePositionsFile([clerk]), '--org', tenant.organisationId);
    expect(result.code).toBe(0);
    const rows: Array<{ body: Buffer; traceparent: string | null }> = await dataSource.query(
      `SELECT body, traceparent FROM events WHERE organisation_id = $1 AND event = 'position.updated'`,
      [tenant.organisationId],
    );
    expect(rows).toHaveLength(1);
    const body = JSON.parse(rows[0].body.toString('utf8'));
    expect(Object.keys(body)).toEqual(['event', 'timestamp', 'data', 'actor', 'requestId']);
    expect(body).toMatchObject({ event: 'position.updated', actor: { type: 'cli' }, requestId: null });
    expect(rows[0].traceparent).toBeNull();
  });

  it('is idempotent: a second import of the same file changes nothing and emits nothing', async () => {
    const { tenant } = await world();
    const file = writePositionsFile([controller, clerk]);
    await cli('positions', 'import', file, '--org', tenant.organisationId, '--json');
    const before = await dataSource.query(
      `SELECT p.id, p.updated_at, r.id AS replacement_id, r.updated_at AS replacement_updated_at
         FROM positions p LEFT JOIN position_replacements r ON r.position_id = p.id
        WHERE p.organisation_id = $1 ORDER BY p.id, r.id`,
      [tenant.organisationId],
    );
    published = [];

    const again = await cli('positions', 'import', file, '--org', tenant.organisationId, '--json');

    expect(onlyJsonObject(again.stdout)).toEqual({ created: 0, updated: 0, unchanged: 2 });
    expect(published).toEqual([]);
    const after = await dataSource.query(
      `SELECT p.id, p.updated_at, r.id AS replacement_id, r.updated_at AS replacement_updated_at
         FROM positions p LEFT JOIN position_replacements r ON r.position_id = p.id
        WHERE p.organisation_id = $1 ORDER BY p.id, r.id`,
      [tenant.organisationId],
    );
    expect(after).toEqual(before);
  });

  it('updates only the positions that changed, keeps ids, clears omitted fields, and emits for those only', async () => {
    const { tenant, accounting } = await world();
    await cli('positions', 'import', writePositionsFile([controller, clerk]), '--org', tenant.organisationId);
    const [controllerBefore] = (await get<PositionResponse[]>(tenant, '/positions')).body.data;
    const detailBefore = (await get<PositionDetailResponse>(tenant, `/positions/${controllerBefore.id}`)).body.data;
    published = [];

    const { description: _dropped, ...withoutDescription } = controller;
    const changed = {
      ...withoutDescription,
      status: 'FILLED',
      requiredSkills: [{ skillName: 'Accounting', minimumRating: 5 }],
      possibleReplacements: [
        { candidatePersonnelNumber: 'P-200', readyAt: '2026-03-01T09:00:00+02:00', status: 'REJECTED' },
      ],
    };
    const result = await cli(
      'positions',
      'import',
      writePositionsFile([clerk, changed]),
      '--org',
      tenant.organisationId,
      '--json',
    );

    expect(onlyJsonObject(result.stdout)).toEqual({ created: 0, updated: 1, unchanged: 1 });
    const [controllerAfter, clerkAfter] = (await get<PositionResponse[]>(tenant, '/positions')).body.data;
    expect(controllerAfter).toEqual({
      ...controllerBefore,
      description: null,
      status: 'FILLED',
      requiredSkills: [{ skillId: accounting.id, skillName: 'Accounting', minimumRating: 5 }],
    });
    expect(clerkAfter.name).toBe('Clerk');
    const detailAfter = (await get<PositionDetailResponse>(tenant, `/positions/${controllerBefore.id}`)).body.data;
    const bobBefore = detailBefore.possibleReplacements.find((each) => each.status === 'PROPOSED');
    expect(detailAfter.possibleReplacements).toEqual([
      expect.objectContaining({ replacementId: bobBefore!.replacementId, status: 'REJECTED' }),
    ]);
    expect(published).toEqual([
      { organisationId: tenant.organisationId, name: 'position.updated', data: controllerAfter, inTransaction: true },
    ]);
  });

  it('sees a change in the replacements alone', async () => {
    const { tenant } = await world();
    await cli('positions', 'import', writePositionsFile([controller]), '--org', tenant.organisationId);
    published = [];
    const moved = {
      ...controller,
      possibleReplacements: [
        controller.possibleReplacements[0],
        { ...controller.possibleReplacements[1], readyAt: '2026-02-02' },
      ],
    };
    const result = await cli(
      'positions',
      'import',
      writePositionsFile([moved]),
      '--org',
      tenant.organisationId,
      '--json',
    );
    expect(onlyJsonObject(result.stdout)).toEqual({ created: 0, updated: 1, unchanged: 0 });
    expect(published).toHaveLength(1);
  });

  it('leaves positions absent from the file as they are', async () => {
    const { tenant } = await world();
    await cli('positions', 'import', writePositionsFile([controller, clerk]), '--org', tenant.organisationId);
    const result = await cli(
      'positions',
      'import',
      writePositionsFile([clerk]),
      '--org',
      tenant.organisationId,
      '--json',
    );
    expect(onlyJsonObject(result.stdout)).toEqual({ created: 0, updated: 0, unchanged: 1 });
    expect(await countPositions(tenant.organisationId)).toBe(2);
  });

  it('names every unknown personnelNumber and skill name, and writes nothing', async () => {
    const { tenant } = await world();
    const broken = {
      ...controller,
      ref: 'FIN-3',
      replacesPersonnelNumber: 'P-404',
      requiredSkills: [{ skillName: 'Juggling', minimumRating: 1 }],
      possibleReplacements: [{ candidatePersonnelNumber: 'P-405', readyAt: '2026-01-01', status: 'PROPOSED' }],
    };
    const result = await cli(
      'positions',
      'import',
      writePositionsFile([clerk, broken]),
      '--org',
      tenant.organisationId,
      '--json',
    );

    expect(result.code).toBe(1);
    const { error } = onlyJsonObject(result.stdout) as { error: { message: string; code: string } };
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toContain('[1].replacesPersonnelNumber names unknown employee personnelNumber "P-404"');
    expect(error.message).toContain(
      '[1].possibleReplacements[0].candidatePersonnelNumber names unknown employee personnelNumber "P-405"',
    );
    expect(error.message).toContain('[1].requiredSkills[0].skillName names unknown skill "Juggling"');
    expect(result.stderr).toContain('P-404');
    expect(await countPositions(tenant.organisationId)).toBe(0);
    expect(published).toEqual([]);
  });

  it('does not resolve employees or skills of another organisation', async () => {
    const { tenant } = await world();
    const other = await world();
    await other.fixtures.employee({ personnelNumber: 'P-STRANGER' });
    await other.fixtures.skill('Juggling');
    const stranger = {
      ...clerk,
      replacesPersonnelNumber: 'P-STRANGER',
      requiredSkills: [{ skillName: 'Juggling', minimumRating: 1 }],
    };
    const refused = await cli('positions', 'import', writePositionsFile([stranger]), '--org', tenant.organisationId);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unknown employee personnelNumber "P-STRANGER"');
    expect(refused.stderr).toContain('unknown skill "Juggling"');
    expect(await countPositions(tenant.organisationId)).toBe(0);
  });

  it('rejects a minimumRating outside the skill’s rating scale', async () => {
    const { tenant } = await world();
    const tooHigh = { ...clerk, requiredSkills: [{ skillName: 'Accounting', minimumRating: 6 }] };
    const result = await cli('positions', 'import', writePositionsFile([tooHigh]), '--org', tenant.organisationId);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '[0].requiredSkills[0].minimumRating 6 is outside the rating scale 0..5 of skill "Accounting"',
    );
    expect(await countPositions(tenant.organisationId)).toBe(0);
  });

  it('validates the whole file before writing: a bad entry after good ones writes nothing', async () => {
    const { tenant } = await world();
    const result = await cli(
      'positions',
      'import',
      writePositionsFile([clerk, { ...controller, status: 'ARCHIVED', mustBeFilledBy: 'tomorrow' }]),
      '--org',
      tenant.organisationId,
      '--json',
    );
    expect(result.code).toBe(1);
    const { error } = onlyJsonObject(result.stdout) as { error: { message: string } };
    expect(error.message).toContain('[1].status must be one of OPEN, IN_PROGRESS, FILLED, CLOSED');
    expect(error.message).toContain('[1].mustBeFilledBy must be an ISO 8601 date or date-time');
    expect(await countPositions(tenant.organisationId)).toBe(0);
  });

  it('rolls back everything when a write fails part-way through', async () => {
    const { tenant } = await world();
    await cli('positions', 'import', writePositionsFile([clerk]), '--org', tenant.organisationId);
    const clerkBefore = (await get<PositionResponse[]>(tenant, '/positions')).body.data[0];
    // The second event's listener fails (as an outbox write could), after the positions were written.
    let calls = 0;
    jest.spyOn(DomainEvents.prototype, 'publish').mockImplementation(async () => {
      if (++calls === 2) throw new Error('outbox unavailable');
    });

    const result = await cli(
      'positions',
      'import',
      writePositionsFile([{ ...clerk, name: 'Senior Clerk' }, controller]),
      '--org',
      tenant.organisationId,
    );

    expect(result.code).toBe(1);
    expect(calls).toBe(2);
    expect((await get<PositionResponse[]>(tenant, '/positions')).body.data).toEqual([clerkBefore]);
  });

  it('writes the positions of a file in the same number of statements whatever their number', async () => {
    const { tenant } = await world();
    const importer = suite.app.get(PositionsImportService);
    const positions = (count: number, status: string, readyAt: string) =>
      parsePositionsFile(
        JSON.stringify(
          Array.from({ length: count }, (_, index) => ({
            ...controller,
            ref: `BULK-${count}-${index}`,
            status,
            possibleReplacements: controller.possibleReplacements.map((each) => ({ ...each, readyAt })),
          })),
        ),
      );
    /** The statements on the positions tables: events and deliveries are one per changed position by design. */
    const positionStatements = async (work: () => Promise<unknown>) =>
      (await statementsSent(dataSource, work)).filter((sql) => /position/.test(sql)).length;
    await importer.import(tenant.organisationId, positions(1, 'OPEN', '2026-03-01'), cliWrite());
    await importer.import(tenant.organisationId, positions(5, 'OPEN', '2026-03-01'), cliWrite());

    const one = await positionStatements(() =>
      importer.import(tenant.organisationId, positions(1, 'FILLED', '2026-04-01'), cliWrite()),
    );
    const five = await positionStatements(() =>
      importer.import(tenant.organisationId, positions(5, 'FILLED', '2026-04-01'), cliWrite()),
    );

    expect(five).toBe(one);
    const filled = (await get<PositionResponse[]>(tenant, '/positions?status=FILLED')).body.data;
    expect(filled).toHaveLength(6);
  });

  it.each([
    ['a missing file', () => join(directory, 'absent.json'), /Cannot read the positions file/],
    ['malformed JSON', () => writePositionsFile('[{"ref": '), /not valid JSON/],
    ['a file that is not an array', () => writePositionsFile({ ref: 'x' }), /JSON array/],
  ])('refuses %s', async (_case, file, message) => {
    const { tenant } = await world();
    const result = await cli('positions', 'import', file(), '--org', tenant.organisationId, '--json');
    expect(result.code).toBe(1);
    expect((onlyJsonObject(result.stdout) as { error: { message: string } }).error.message).toMatch(message);
  });

  it('refuses an unknown organisation', async () => {
    const result = await cli('positions', 'import', writePositionsFile([clerk]), '--org', 'No Such Org 9f3', '--json');
    expect(result.code).toBe(1);
    expect(onlyJsonObject(result.stdout)).toEqual({
      error: { message: 'Organisation "No Such Org 9f3" not found', code: 'NOT_FOUND' },
    });
  });

  it('requires --org', async () => {
    const result = await cli('positions', 'import', writePositionsFile([clerk]));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--org/);
  });
});
