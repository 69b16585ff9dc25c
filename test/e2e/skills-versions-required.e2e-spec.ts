import { SkillResponse } from '../../src/skills/dto/skill.response';
import { SkillGroupResponse } from '../../src/skills/groups/dto/skill-group.response';
import { unique } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

describe('REQUIRE_IF_MATCH=true for skills and skill groups (issue 47)', () => {
  const suite = useTestApp({ config: { requireIfMatch: true } });
  const { get, post, patch, del, call } = suite.api;

  describe.each([
    { resource: 'Skill', path: '/skills' },
    { resource: 'SkillGroup', path: '/skill-groups' },
  ])('$path', ({ resource, path }) => {
    const make = async () =>
      (await post<SkillResponse | SkillGroupResponse>(path, { name: unique(resource) }).expect(201)).body.data;

    it('answers a PATCH or DELETE without If-Match or Base-Version with 428, and writes nothing', async () => {
      const item = await make();
      const refused = await patch(`${path}/${item.id}`, { description: 'X' }).expect(428);
      expect(refused.body.error).toEqual({
        code: 'PRECONDITION_REQUIRED',
        message: `This ${resource} write needs If-Match or Base-Version naming the version it is based on`,
      });
      const refusedDelete = await del(`${path}/${item.id}`).expect(428);
      expect(refusedDelete.body.error.message).toBe(
        `This ${resource} write needs If-Match naming the version it is based on`,
      );
      const stored = (await get<SkillResponse>(`${path}/${item.id}`).expect(200)).body.data;
      expect(stored).toMatchObject({ description: null, version: 1 });
    });

    it('takes If-Match or Base-Version, and leaves GET and POST as they were', async () => {
      const item = await make();
      await get(`${path}/${item.id}`).expect(200);
      await get(path).expect(200);
      await call('patch', `${path}/${item.id}`).set('If-Match', '"1"').send({ description: 'A' }).expect(200);
      await call('patch', `${path}/${item.id}`).set('Base-Version', '2').send({ description: 'B' }).expect(200);
      await call('delete', `${path}/${item.id}`).set('If-Match', '*').expect(200);
    });

    it('answers an unknown id with 404 first, and a malformed header with 400', async () => {
      await patch(`${path}/${UNKNOWN_ID}`, { description: 'X' }).expect(404);
      await del(`${path}/${UNKNOWN_ID}`).expect(404);
      const item = await make();
      await call('patch', `${path}/${item.id}`).set('If-Match', 'one').send({ description: 'X' }).expect(400);
    });
  });

  it('leaves POST /skills/bulk as it was', async () => {
    const skill = (await post<SkillResponse>('/skills', { name: unique('Skill') }).expect(201)).body.data;
    const response = await post<unknown[]>('/skills/bulk', { items: [{ name: skill.name, description: 'X' }] });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([{ index: 0, status: 'updated', id: skill.id, error: null }]);
  });
});
