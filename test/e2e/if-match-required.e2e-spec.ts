import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { WebhookResponse } from '../../src/webhooks/dto/webhook.response';
import { createEmployee } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

describe('REQUIRE_IF_MATCH=true (issue 47)', () => {
  const suite = useTestApp({ config: { requireIfMatch: true } });
  const { get, post, patch, del, call } = suite.api;

  it('answers a PATCH or DELETE without If-Match or Base-Version with 428, and writes nothing', async () => {
    const employee = await createEmployee(suite.app, suite.tenant);
    const refused = await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(428);
    expect(refused.body.error).toEqual({
      code: 'PRECONDITION_REQUIRED',
      message: 'This Employee write needs If-Match or Base-Version naming the version it is based on',
    });
    await del(`/employees/${employee.id}`).expect(428);
    const stored = (await get<EmployeeResponse>(`/employees/${employee.id}`).expect(200)).body.data;
    expect(stored).toMatchObject({ title: null, leftAt: null, version: 1 });
  });

  it('takes If-Match or Base-Version', async () => {
    const employee = await createEmployee(suite.app, suite.tenant);
    await call('patch', `/employees/${employee.id}`).set('If-Match', '"1"').send({ title: 'A' }).expect(200);
    await call('patch', `/employees/${employee.id}`).set('Base-Version', '2').send({ title: 'B' }).expect(200);
    await call('delete', `/employees/${employee.id}`).set('If-Match', '*').expect(200);
  });

  it('leaves GETs and POSTs (erase and bulk too) as they were', async () => {
    const employee = await createEmployee(suite.app, suite.tenant);
    await get(`/employees/${employee.id}`).expect(200);
    await post('/employees/bulk', { items: [{ personnelNumber: employee.personnelNumber, title: 'X' }] }).expect(200);
    await post(`/employees/${employee.id}/erase`, {}).expect(200);
  });

  it('answers an unknown id with 404 first, and a malformed header with 400', async () => {
    await patch(`/employees/${UNKNOWN_ID}`, { title: 'X' }).expect(404);
    await del(`/employees/${UNKNOWN_ID}`).expect(404);
    const employee = await createEmployee(suite.app, suite.tenant);
    await call('patch', `/employees/${employee.id}`).set('If-Match', 'one').send({ title: 'X' }).expect(400);
  });

  it('asks the same of DELETE /webhooks/{id}', async () => {
    const endpoint = (
      await post<WebhookResponse>('/webhooks', { url: 'https://hooks.example.com/r', events: ['skill.rated'] }).expect(
        201,
      )
    ).body.data;
    await del(`/webhooks/${endpoint.id}`).expect(428);
    await call('delete', `/webhooks/${endpoint.id}`).set('If-Match', `"${endpoint.version}"`).expect(200);
  });
});
