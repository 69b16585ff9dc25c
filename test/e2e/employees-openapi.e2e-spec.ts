import { apiClient } from '../support/api-client';
import { useTestApp } from '../support/use-test-app';

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, any> }
    >
  >;
  components: { schemas: Record<string, { properties?: Record<string, any>; required?: string[]; allOf?: unknown[] }> };
}

/** The OpenAPI document describes every endpoint of employees, employee skills, ratings and skills. */
describe('OpenAPI of employees, skills and ratings', () => {
  const suite = useTestApp({ tenant: 'none' });
  let document: OpenApiDocument;

  beforeAll(async () => {
    document = (
      await apiClient(() => suite.app)
        .get('/openapi.json')
        .expect(200)
    ).body;
  });

  const dataSchemaRef = (path: string, method: string, status: string): string => {
    const data = document.paths[path][method].responses[status].content['application/json'].schema.properties.data;
    return (data.items ?? data).$ref;
  };

  it.each([
    ['/employees', 'get', '200', 'Employee', true],
    ['/employees', 'post', '201', 'Employee', false],
    ['/employees/{id}', 'get', '200', 'EmployeeDetail', false],
    ['/employees/{id}', 'patch', '200', 'Employee', false],
    ['/employees/{id}', 'delete', '200', 'DeactivatedEmployee', false],
    ['/employees/{id}/skills', 'get', '200', 'PersonSkill', false],
    ['/employees/{id}/skills/{skillId}', 'put', '200', 'PersonSkill', false],
    ['/employees/{id}/skills/{skillId}', 'delete', '200', 'Deleted', false],
    ['/employees/{id}/ratings', 'get', '200', 'Rating', true],
    ['/employees/{id}/ratings', 'post', '201', 'Rating', false],
    ['/skills', 'get', '200', 'Skill', true],
    ['/skills', 'post', '201', 'Skill', false],
    ['/skills/{id}', 'get', '200', 'SkillDetail', false],
    ['/skills/{id}', 'patch', '200', 'Skill', false],
    ['/skills/{id}', 'delete', '200', 'Deleted', false],
  ])('documents %s %s with a %s response of %s', (path, method, status, schema, paginated) => {
    const operation = document.paths[path]?.[method];
    expect(operation).toBeDefined();
    expect(dataSchemaRef(path, method, status)).toBe(`#/components/schemas/${schema}`);
    const envelope = operation.responses[status].content['application/json'].schema;
    expect(Boolean(envelope.properties.meta)).toBe(paginated);
    expect(operation.responses['401']).toBeDefined();
  });

  const EMPLOYEE = [
    'id',
    'personnelNumber',
    'firstName',
    'lastName',
    'businessEmail',
    'title',
    'gender',
    'departmentId',
    'hiredAt',
    'leftAt',
    'isHRTeamMember',
    'createdAt',
    'updatedAt',
    'version',
  ];
  const SKILL = [
    'id',
    'name',
    'description',
    'aliases',
    'hiddenAliases',
    'groups',
    'source',
    'externalId',
    'ratingScaleMin',
    'ratingScaleMax',
    'ratingScaleType',
    'createdAt',
    'updatedAt',
    'version',
  ];

  it.each([
    ['Employee', EMPLOYEE],
    ['EmployeeDetail', [...EMPLOYEE, 'skills']],
    ['PersonSkill', ['personSkillId', 'skillId', 'skillName', 'latestRating']],
    ['PersonSkillLatestRating', ['ratingId', 'score', 'ratingType', 'comment', 'createdAt']],
    ['EmployeeSkillLatestRating', ['score', 'ratingType', 'createdAt']],
    ['Rating', ['ratingId', 'personSkillId', 'skillId', 'skillName', 'score', 'ratingType', 'comment', 'createdAt']],
    ['Skill', SKILL],
    ['SkillDetail', [...SKILL, 'employeeCount']],
    ['DeactivatedEmployee', ['id', 'leftAt']],
    ['Deleted', ['deleted']],
  ])('describes the %s schema with exactly its fields, all required', (name, fields) => {
    const schema = document.components.schemas[name];
    expect(schema).toBeDefined();
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual([...fields].sort());
    expect([...(schema.required ?? [])].sort()).toEqual([...fields].sort());
  });

  it('marks the nullable fields nullable', () => {
    const { Employee, Rating, PersonSkill } = document.components.schemas;
    for (const field of ['title', 'gender', 'departmentId', 'hiredAt', 'leftAt']) {
      expect(Employee.properties![field].nullable).toBe(true);
    }
    expect(Rating.properties!.comment.nullable).toBe(true);
    expect(PersonSkill.properties!.latestRating.anyOf).toEqual([
      { $ref: '#/components/schemas/PersonSkillLatestRating' },
      { type: 'object', nullable: true, enum: [null] },
    ]);
    expect(Rating.properties!.score.type).toBe('integer');
    expect(document.components.schemas.SkillDetail.properties!.employeeCount.type).toBe('integer');
  });

  it('documents the query parameters and the request bodies', () => {
    const names = (path: string, method: string) => (document.paths[path][method].parameters ?? []).map((p) => p.name);
    expect(names('/employees', 'get')).toEqual(
      expect.arrayContaining(['page', 'limit', 'search', 'departmentId', 'isActive']),
    );
    expect(names('/skills', 'get')).toEqual(expect.arrayContaining(['page', 'limit', 'search']));
    expect(names('/employees/{id}/ratings', 'get')).toEqual(
      expect.arrayContaining(['id', 'page', 'limit', 'skillId', 'ratingType', 'from', 'to']),
    );
    expect(names('/employees/{id}/skills/{skillId}', 'delete')).toEqual(
      expect.arrayContaining(['id', 'skillId', 'force']),
    );
    for (const [path, method] of [
      ['/employees', 'post'],
      ['/employees/{id}', 'patch'],
      ['/employees/{id}/skills/{skillId}', 'put'],
      ['/employees/{id}/ratings', 'post'],
      ['/skills', 'post'],
      ['/skills/{id}', 'patch'],
    ]) {
      expect(document.paths[path][method].requestBody).toBeDefined();
    }
    const ratingBody = document.components.schemas.CreateRatingDto;
    expect(ratingBody.required).toEqual(expect.arrayContaining(['skillId', 'score', 'ratingType']));
    expect(ratingBody.properties!.ratingType.enum).toEqual(['MANAGER_EVALUATION', 'SELF_ASSESMENT', 'LLM_RATING']);
  });
});
