import { BulkItemResultResponse } from '../../src/bulk/bulk';
import { cliWrite } from '../../src/database/write-context';
import { ValidationError } from '../../src/errors/errors';
import { PositionResponse } from '../../src/positions/dto/position.response';
import { parsePositionsFile } from '../../src/positions/import/positions-file';
import { PositionsImportService } from '../../src/positions/import/positions-import.service';
import { RatingResponse } from '../../src/ratings/dto/rating.response';
import { createEmployee, createSkill } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

describe('skill names resolved as POST /skills/resolve does: bulk ratings and the positions import', () => {
  const suite = useTestApp();
  const { get, post } = suite.api;

  it('rates by alias and hidden alias on the right skill; an ambiguous name fails that item only, naming the candidates', async () => {
    const employee = await createEmployee(suite.app, suite.tenant);
    const javascript = await createSkill(suite.app, suite.tenant, {
      name: 'JavaScript',
      aliases: ['JS'],
      hiddenAliases: ['Javascrpit'],
    });
    const java = await createSkill(suite.app, suite.tenant, { name: 'Java', aliases: ['JVM'] });
    const kotlin = await createSkill(suite.app, suite.tenant, { name: 'Kotlin', aliases: ['jvm'] });
    const item = (skillName: string) => ({
      employeeId: employee.id,
      skillName,
      score: 3,
      ratingType: 'SELF_ASSESMENT',
    });
    const response = await post<BulkItemResultResponse[]>('/ratings/bulk', {
      items: [item('js'), item('JVM'), item('javascrpit'), item('Cobol'), item('KOTLIN')],
    }).expect(200);
    expect(response.body.data.map(({ status }) => status)).toEqual([
      'created',
      'failed',
      'created',
      'failed',
      'created',
    ]);
    expect(response.body.data[1].error).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('ambiguous'),
      details: [
        { field: 'skillName', message: expect.stringContaining(java.id) },
        { field: 'skillName', message: expect.stringContaining(kotlin.id) },
      ],
    });
    expect(response.body.data[3].error).toMatchObject({ code: 'NOT_FOUND' });
    const ratings = (await get<RatingResponse[]>(`/employees/${employee.id}/ratings`).expect(200)).body.data;
    expect(ratings.map(({ skillId }) => skillId).sort()).toEqual([javascript.id, javascript.id, kotlin.id].sort());
  });

  it('imports positions whose skills are named by alias, and refuses an ambiguous name naming the candidates', async () => {
    const sql = await createSkill(suite.app, suite.tenant, { name: 'SQL', aliases: ['Structured Query Language'] });
    const importer = suite.app.get(PositionsImportService);
    const position = (ref: string, skillName: string) =>
      parsePositionsFile(
        JSON.stringify([
          {
            ref,
            name: 'Analyst',
            status: 'OPEN',
            requiredSkills: [{ skillName, minimumRating: 3 }],
            possibleReplacements: [],
          },
        ]),
      );
    await importer.import(suite.tenant.organisationId, position('R-1', 'structured query language'), cliWrite());
    const positions = (await get<PositionResponse[]>('/positions').expect(200)).body.data;
    expect(positions[0].requiredSkills).toEqual([{ skillId: sql.id, skillName: 'SQL', minimumRating: 3 }]);

    const first = await createSkill(suite.app, suite.tenant, { name: 'Data A', aliases: ['data'] });
    const second = await createSkill(suite.app, suite.tenant, { name: 'Data B', aliases: ['Data'] });
    const refused = await importer.import(suite.tenant.organisationId, position('R-2', 'DATA'), cliWrite()).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).details).toEqual([
      { field: '[0].requiredSkills[0].skillName', message: expect.stringContaining(first.id) },
      { field: '[0].requiredSkills[0].skillName', message: expect.stringContaining(second.id) },
    ]);
  });
});
