import request from 'supertest';
import { ActivityLog } from '../../src/audit/activity-log';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { CandidateResponse } from '../../src/positions/dto/candidate.response';
import { createTenant, dataSourceOf, TestTenant } from '../support/app';
import { consolePerson, ConsolePerson } from '../support/console';
import { PositionsFixtures } from '../support/positions-fixtures';
import { useTestApp } from '../support/use-test-app';

const suite = useTestApp({ tenant: 'none' });
let tenant: TestTenant;
let admin: ConsolePerson;
let viewer: ConsolePerson;

beforeAll(async () => {
  tenant = await createTenant(suite.app, 'Data pages');
  admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
  viewer = await consolePerson(suite.app, tenant.organisationId, 'viewer');
});

const api = (key: string) => ({
  get: (path: string) => request(suite.app.getHttpServer()).get(`/api/v1${path}`).set('Authorization', `Bearer ${key}`),
  post: (path: string, body: object) =>
    request(suite.app.getHttpServer()).post(`/api/v1${path}`).set('Authorization', `Bearer ${key}`).send(body),
});

let sequence = 0;

/** An employee made through the API, as an integrator would. */
async function employee(key: string, fields: Partial<EmployeeResponse> = {}): Promise<EmployeeResponse> {
  const n = `${Date.now().toString(36)}${(sequence++).toString(36)}`;
  const response = await api(key)
    .post('/employees', {
      personnelNumber: `P-${n}`,
      firstName: 'Grace',
      lastName: `Hopper ${n}`,
      businessEmail: `grace.${n}@example.com`,
      ...fields,
    })
    .expect(201);
  return response.body.data as EmployeeResponse;
}

/** A skill made through the API; its name gets a number, so names never collide. */
async function skill(key: string, name: string): Promise<{ id: string; name: string }> {
  const response = await api(key)
    .post('/skills', { name: `${name} ${sequence++}` })
    .expect(201);
  return response.body.data as { id: string; name: string };
}

async function rate(key: string, employeeId: string, skill: { id: string }, score: number, ratingType: string) {
  await api(key).post(`/employees/${employeeId}/ratings`, { skillId: skill.id, score, ratingType }).expect(201);
}

/** The text of the cells of each body row of the first table after `marker` (a string, or a caption's text). */
function rowsOf(page: string, marker: string | { caption: string }): string[][] {
  const start =
    typeof marker === 'string'
      ? page.indexOf(marker)
      : page.search(new RegExp(`<caption>\\s*${marker.caption.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*</caption>`));
  expect(start).toBeGreaterThan(-1);
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page.slice(start))![1];
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) =>
      cell
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

async function activityActions(organisationId: string): Promise<string[]> {
  return (await suite.app.get(ActivityLog).page(organisationId, {})).entries.map(
    ({ action, target }) => `${action}: ${target}`,
  );
}

describe('the navigation', () => {
  it('lists Employees, Skills and Positions after Activity, the settings unchanged', async () => {
    const page = (await viewer.agent.get('/console/employees').expect(200)).text;
    const links = [
      ...page.matchAll(/<li><a href="\/console\/[\w-]+"\s*(?:aria-current="page")?>([^<]+)<\/a><\/li>/g),
    ].map(([, name]) => name);
    expect(links).toEqual(['API keys', 'Webhooks', 'Events', 'People', 'Activity', 'Employees', 'Skills', 'Positions']);
    expect(page).toMatch(/<a href="\/console\/employees"\s*aria-current="page">Employees<\/a>/);
  });
});

describe('Employees', () => {
  let own: TestTenant;
  let person: ConsolePerson;
  beforeAll(async () => {
    own = await createTenant(suite.app, 'Employees list');
    person = await consolePerson(suite.app, own.organisationId, 'viewer');
  });

  it('lists Name, Email, Title, Skills and Status, 50 a page oldest first, each linking to the employee', async () => {
    const made: EmployeeResponse[] = [];
    for (let index = 0; index < 52; index++) {
      made.push(await employee(own.key, { firstName: `Listed${String(index).padStart(2, '0')}`, title: 'Engineer' }));
    }
    const typescript = await skill(own.key, 'TypeScript');
    const sql = await skill(own.key, 'SQL');
    await rate(own.key, made[0].id, typescript, 3, 'MANAGER_EVALUATION');
    await rate(own.key, made[0].id, sql, 2, 'SELF_ASSESMENT');
    await request(suite.app.getHttpServer())
      .delete(`/api/v1/employees/${made[1].id}`)
      .set('Authorization', own.bearer)
      .expect(200);

    const first = (await person.agent.get('/console/employees').expect(200)).text;
    for (const column of ['Name', 'Email', 'Title', 'Skills', 'Status']) {
      expect(first).toContain(`<th scope="col">${column}</th>`);
    }
    const rows = rowsOf(first, '<th scope="col">Status</th>');
    expect(rows).toHaveLength(50);
    expect(rows[0]).toEqual([`Listed00 ${made[0].lastName}`, made[0].businessEmail, 'Engineer', '2', 'active']);
    expect(rows[1]).toEqual([`Listed01 ${made[1].lastName}`, made[1].businessEmail, 'Engineer', '0', 'deactivated']);
    expect(first).toContain(`<a href="/console/employees/${made[0].id}">`);
    expect(first).toContain('52 employees: page 1 of 2.');
    expect(first).toContain('href="/console/employees?page=2">Next</a>');

    const second = (await person.agent.get('/console/employees?page=2').expect(200)).text;
    expect(rowsOf(second, '<th scope="col">Status</th>').map(([name]) => name)).toEqual(
      made.slice(50).map(({ firstName, lastName }) => `${firstName} ${lastName}`),
    );
    expect(second).toContain('href="/console/employees?page=1">Previous</a>');
    expect(second).not.toContain('>Next</a>');
  });

  it('searches as GET /employees?search= does, keeping the search and status while paging', async () => {
    const needle = await employee(own.key, { firstName: 'Zebediah', lastName: 'Searchable' });
    const byName = (await person.agent.get('/console/employees?search=zebediah').expect(200)).text;
    expect(rowsOf(byName, '<th scope="col">Status</th>').map(([name]) => name)).toEqual(['Zebediah Searchable']);
    expect(byName).toContain('value="zebediah"');
    expect(byName).toContain('1 employee matching “zebediah”.');
    const api = await request(suite.app.getHttpServer())
      .get('/api/v1/employees?search=listed0&limit=50')
      .set('Authorization', own.bearer)
      .expect(200);
    const listed = (await person.agent.get('/console/employees?search=listed0').expect(200)).text;
    expect(rowsOf(listed, '<th scope="col">Status</th>').map(([, email]) => email)).toEqual(
      (api.body.data as EmployeeResponse[]).map(({ businessEmail }) => businessEmail),
    );
    const byNumber = (await person.agent.get(`/console/employees?search=${needle.personnelNumber}`).expect(200)).text;
    expect(byNumber).toContain('Zebediah Searchable');

    const deactivated = (await person.agent.get('/console/employees?status=deactivated').expect(200)).text;
    expect(rowsOf(deactivated, '<th scope="col">Status</th>').map(([, , , , status]) => status)).toEqual([
      'deactivated',
    ]);
    const active = (await person.agent.get('/console/employees?search=listed&status=active').expect(200)).text;
    expect(active).toContain('51 employees matching “listed”: page 1 of 2.');
    expect(active).toContain('href="/console/employees?search=listed&amp;status=active&amp;page=2">Next</a>');
    const nothing = (await person.agent.get('/console/employees?search=nobody-by-this-name').expect(200)).text;
    expect(nothing).toContain('0 employees matching “nobody-by-this-name”.');
    await person.agent.get(`/console/employees?search=${'x'.repeat(201)}`).expect(400);
  });

  it('never lists another organisation’s employees', async () => {
    const other = await createTenant(suite.app, 'Employees elsewhere');
    await employee(other.key, { firstName: 'Outsider', lastName: 'Elsewhere' });
    const page = (await person.agent.get('/console/employees?search=outsider').expect(200)).text;
    expect(page).not.toContain('Elsewhere');
    expect(page).toContain('0 employees matching “outsider”.');
  });
});

describe('an employee’s page', () => {
  it('shows their fields, their skills with the latest rating, and each skill’s history with its numbers', async () => {
    const ada = await employee(tenant.key, { firstName: 'Ada', lastName: 'Lovelace', title: 'Analyst' });
    const sql = await skill(tenant.key, 'SQL');
    const go = await skill(tenant.key, 'Go');
    const unrated = await skill(tenant.key, 'Unrated');
    await rate(tenant.key, ada.id, sql, 2, 'SELF_ASSESMENT');
    await rate(tenant.key, ada.id, sql, 4, 'MANAGER_EVALUATION');
    await rate(tenant.key, ada.id, sql, 3, 'LLM_RATING');
    await rate(tenant.key, ada.id, go, 5, 'MANAGER_EVALUATION');
    const ratings = (await api(tenant.key).get(`/employees/${ada.id}/ratings?skillId=${sql.id}`).expect(200)).body
      .data as Array<{ score: number; createdAt: string }>;

    const page = (await viewer.agent.get(`/console/employees/${ada.id}`).expect(200)).text;
    expect(page).toContain('<h1>Ada Lovelace</h1>');
    for (const value of [ada.personnelNumber, ada.businessEmail, 'Analyst']) expect(page).toContain(value);
    const skills = rowsOf(page, 'aria-labelledby="skills-heading"');
    expect(skills).toContainEqual([
      sql.name,
      '3',
      'LLM rating',
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
    ]);
    expect(skills.find(([name]) => name === go.name)!.slice(1, 3)).toEqual(['5', 'Manager evaluation']);

    const minute = (at: string) => `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
    expect(rowsOf(page, { caption: `Rating history of ${sql.name}` })).toEqual(
      [...ratings]
        .reverse()
        .map(({ score, createdAt }, index) => [
          minute(createdAt),
          String(score),
          ['Self-assessment', 'Manager evaluation', 'LLM rating'][index],
        ]),
    );
    expect(page).toMatch(new RegExp(`<svg[^>]*role="img"[^>]*aria-labelledby="history-${sql.id}-title"`));
    expect(page).toContain('3 ratings, on a scale of 0 to 5.');
    expect(page).not.toContain(`Rating history of ${unrated.name}`);
  });

  it('draws only the latest 100 ratings of a skill, and says how many there are', async () => {
    const busy = await employee(tenant.key);
    const often = await skill(tenant.key, 'Often rated');
    for (let index = 0; index < 103; index++) await rate(tenant.key, busy.id, often, index % 6, 'LLM_RATING');
    const page = (await viewer.agent.get(`/console/employees/${busy.id}`).expect(200)).text;
    expect(page).toContain('The latest 100 of 103 ratings, on a scale of 0 to 5.');
    expect(rowsOf(page, { caption: `Rating history of ${often.name}` })).toHaveLength(100);
  });

  it('answers 404 for another organisation’s employee, and for an id that is none', async () => {
    const other = await createTenant(suite.app, 'Employee elsewhere');
    const stranger = await employee(other.key, { firstName: 'Stranger' });
    for (const path of ['', '/erase']) {
      const page = await admin.agent.get(`/console/employees/${stranger.id}${path}`).expect(404);
      expect(page.text).not.toContain('Stranger');
    }
    await admin.agent.post(`/console/employees/${stranger.id}/personal-data`).expect(404);
    await admin.agent
      .post(`/console/employees/${stranger.id}/erase`)
      .type('form')
      .send({ personnelNumber: stranger.personnelNumber })
      .expect(404);
    await api(other.key).get(`/employees/${stranger.id}`).expect(200);
    await admin.agent.get('/console/employees/not-an-id').expect(404);
  });
});

describe('Export personal data', () => {
  it('downloads the data GET /employees/{id}/personal-data answers, as a JSON file, and records it', async () => {
    const subject = await employee(tenant.key, { firstName: 'Exported' });
    await rate(tenant.key, subject.id, await skill(tenant.key, 'Exported skill'), 4, 'MANAGER_EVALUATION');
    for (const person of [admin, viewer]) {
      const download = await person.agent.post(`/console/employees/${subject.id}/personal-data`).expect(200);
      expect(download.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(download.headers['content-disposition']).toBe(`attachment; filename="personal-data-${subject.id}.json"`);
      const fromApi = await api(tenant.key).get(`/employees/${subject.id}/personal-data`).expect(200);
      expect(JSON.parse(download.text)).toEqual(fromApi.body.data);
      expect(JSON.parse(download.text)).toMatchObject({ employee: { id: subject.id }, ratings: [{ score: 4 }] });
    }
    const entries = (await suite.app.get(ActivityLog).page(tenant.organisationId, {})).entries.filter(
      ({ action, target }) => action === 'personal data exported' && target === subject.id,
    );
    expect(entries.map(({ actor }) => actor).sort()).toEqual([admin.email, viewer.email].sort());
  });

  it('is refused from another site, and leaves no trace then', async () => {
    const subject = await employee(tenant.key);
    await admin.agent
      .post(`/console/employees/${subject.id}/personal-data`)
      .set('Origin', 'https://evil.example')
      .expect(403);
    expect(await activityActions(tenant.organisationId)).not.toContain(`personal data exported: ${subject.id}`);
  });
});

describe('Erase employee', () => {
  it('offers admins "Erase employee" and the typed confirmation; viewers neither', async () => {
    const subject = await employee(tenant.key);
    const forAdmin = (await admin.agent.get(`/console/employees/${subject.id}`).expect(200)).text;
    expect(forAdmin).toContain('>Erase employee</button>');
    expect(forAdmin).toContain('>Export personal data</button>');
    const confirm = (await admin.agent.get(`/console/employees/${subject.id}/erase`).expect(200)).text;
    expect(confirm).toContain('<label for="erase-personnel-number">Personnel number</label>');
    expect(confirm).toContain('>Erase</button>');
    const forViewer = (await viewer.agent.get(`/console/employees/${subject.id}`).expect(200)).text;
    expect(forViewer).not.toContain('Erase employee');
    expect(forViewer).toContain('>Export personal data</button>');
    await viewer.agent.get(`/console/employees/${subject.id}/erase`).expect(403);
  });

  it('erases nothing when the personnel number typed is not the employee’s', async () => {
    const subject = await employee(tenant.key);
    for (const typed of ['', 'P-wrong', subject.personnelNumber.toLowerCase()]) {
      const refused = await admin.agent
        .post(`/console/employees/${subject.id}/erase`)
        .type('form')
        .send({ personnelNumber: typed });
      expect(refused.status).toBe(303);
      expect(refused.headers.location).toBe(`/console/employees/${subject.id}/erase`);
      const page = (await admin.agent.get(refused.headers.location).expect(200)).text;
      expect(page).toContain('That is not the employee’s personnel number: nothing was erased.');
    }
    await api(tenant.key).get(`/employees/${subject.id}`).expect(200);
    expect(await activityActions(tenant.organisationId)).not.toContain(`employee erased: ${subject.id}`);
  });

  it('erases through the privacy service with the right number: the API then answers 404, the feed and Activity say so', async () => {
    const subject = await employee(tenant.key, { firstName: 'Erasable' });
    await rate(tenant.key, subject.id, await skill(tenant.key, 'Erased skill'), 3, 'SELF_ASSESMENT');
    const erased = await admin.agent
      .post(`/console/employees/${subject.id}/erase`)
      .type('form')
      .send({ personnelNumber: ` ${subject.personnelNumber} ` });
    expect(erased.status).toBe(303);
    expect(erased.headers.location).toBe('/console/employees');
    const list = (await admin.agent.get('/console/employees').expect(200)).text;
    expect(list).toContain(`Erased employee ${subject.id}`);
    await api(tenant.key).get(`/employees/${subject.id}`).expect(404);
    await api(tenant.key).get(`/employees/${subject.id}/personal-data`).expect(404);
    await admin.agent.get(`/console/employees/${subject.id}`).expect(404);
    expect(await activityActions(tenant.organisationId)).toContain(`employee erased: ${subject.id}`);

    const erasures: Array<{ body: Buffer }> = await dataSourceOf(suite.app).query(
      `SELECT body FROM events WHERE organisation_id = $1 AND event = 'employee.erased'`,
      [tenant.organisationId],
    );
    const event = erasures
      .map(({ body }) => JSON.parse(body.toString('utf8')) as { data: { id: string } })
      .find(({ data }) => data.id === subject.id);
    expect(event).toMatchObject({
      event: 'employee.erased',
      data: { id: subject.id },
      actor: { type: 'console', id: admin.id },
    });
    // The log keeps the id only: nothing erased lives on in it.
    const entries = (await suite.app.get(ActivityLog).page(tenant.organisationId, {})).entries;
    expect(JSON.stringify(entries)).not.toContain('Erasable');
  });

  it('refuses a viewer’s forged erasure and one from another site with 403, and another organisation’s with 404', async () => {
    const subject = await employee(tenant.key);
    const form = { personnelNumber: subject.personnelNumber };
    await viewer.agent.post(`/console/employees/${subject.id}/erase`).type('form').send(form).expect(403);
    await admin.agent
      .post(`/console/employees/${subject.id}/erase`)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send(form)
      .expect(403);
    const other = await createTenant(suite.app, 'Erase elsewhere');
    const outsider = await consolePerson(suite.app, other.organisationId, 'admin');
    await outsider.agent.post(`/console/employees/${subject.id}/erase`).type('form').send(form).expect(404);
    await api(tenant.key).get(`/employees/${subject.id}`).expect(200);
  });
});

describe('Skills', () => {
  let own: TestTenant;
  let person: ConsolePerson;
  beforeAll(async () => {
    own = await createTenant(suite.app, 'Skills pages');
    person = await consolePerson(suite.app, own.organisationId, 'viewer');
  });

  async function group(name: string, parentIds: string[] = []): Promise<{ id: string; name: string }> {
    const response = await api(own.key).post('/skill-groups', { name, parentIds }).expect(201);
    return response.body.data as { id: string; name: string };
  }

  it('opens a top group to the groups and skills below it, and searches names and aliases', async () => {
    const top = await group('Digital competences');
    const child = await group('Programming', [top.id]);
    const created = await api(own.key)
      .post('/skills', { name: 'TypeScript', aliases: ['TS'], groupIds: [child.id] })
      .expect(201);
    const typescript = created.body.data as { id: string };

    const catalogue = (await person.agent.get('/console/skills').expect(200)).text;
    expect(catalogue).toContain(`<a href="/console/skills/groups/${top.id}">Digital competences</a>`);
    const tree = /<ul class="group-tree"[\s\S]*?<\/ul>/.exec(catalogue)![0];
    expect(tree).toContain(`href="/console/skills/groups/${top.id}"`);
    expect(tree).not.toContain(`href="/console/skills/groups/${child.id}"`);

    const topPage = (await person.agent.get(`/console/skills/groups/${top.id}`).expect(200)).text;
    expect(topPage).toContain(`<a href="/console/skills/groups/${child.id}">Programming</a>`);
    expect(rowsOf(topPage, 'Skills in it or below it')).toEqual([['TypeScript', 'TS', 'Programming', 'none']]);
    expect(topPage).toContain('1, in it or below it');

    const found = (await person.agent.get('/console/skills?search=ts').expect(200)).text;
    expect(found).toContain(`<a href="/console/skills/${typescript.id}">TypeScript</a>`);
    expect(found).toContain('matching “ts”');
    await person.agent.get(`/console/skills?search=${'x'.repeat(201)}`).expect(400);
  });

  it('shows a skill’s aliases and a chart of its active employees’ latest scores, as the API counts them', async () => {
    const created = await api(own.key)
      .post('/skills', { name: 'Go', aliases: ['Golang'], hiddenAliases: ['Goo'], ratingScaleMax: 5 })
      .expect(201);
    const go = created.body.data as { id: string; name: string; ratingScaleMin: number };
    const scores = [4, 4, 2];
    for (const score of scores) await rate(own.key, (await employee(own.key)).id, go, score, 'MANAGER_EVALUATION');
    const leaver = await employee(own.key);
    await rate(own.key, leaver.id, go, 5, 'MANAGER_EVALUATION');
    await request(suite.app.getHttpServer())
      .delete(`/api/v1/employees/${leaver.id}`)
      .set('Authorization', `Bearer ${own.key}`)
      .expect(200);

    const page = (await person.agent.get(`/console/skills/${go.id}`).expect(200)).text;
    expect(page).toContain('Golang');
    expect(page).toContain('Goo');
    const chart = rowsOf(page, { caption: `Active employees by latest score on ${go.name}` });
    const listed = (await api(own.key).get(`/skills/${go.id}/employees?isActive=true&limit=100`).expect(200)).body
      .data as Array<{ latestRating: { score: number } | null }>;
    const scale = Array.from({ length: 6 - go.ratingScaleMin }, (_, index) => go.ratingScaleMin + index);
    const expected = scale.map((score) => [
      `Score ${score}`,
      String(listed.filter(({ latestRating }) => latestRating?.score === score).length),
    ]);
    expect(chart).toEqual(expected);
    expect(expected.slice(-5).map(([, count]) => count)).toEqual(['0', '1', '0', '2', '0']);
  });

  it('answers 404 for another organisation’s skill and group, and for ids that are none', async () => {
    const other = await createTenant(suite.app, 'Skills elsewhere');
    const strange = (await api(other.key).post('/skills', { name: 'Strange skill' }).expect(201)).body.data;
    const strangeGroup = (await api(other.key).post('/skill-groups', { name: 'Strange group' }).expect(201)).body.data;
    for (const path of [`/console/skills/${strange.id}`, `/console/skills/groups/${strangeGroup.id}`]) {
      const page = await person.agent.get(path).expect(404);
      expect(page.text).not.toContain('Strange');
    }
    await person.agent.get('/console/skills/not-an-id').expect(404);
    await person.agent.get('/console/skills/groups/not-an-id').expect(404);
    const catalogue = (await person.agent.get('/console/skills?search=Strange').expect(200)).text;
    expect(catalogue).not.toContain('Strange skill');
  });
});

describe('Positions', () => {
  let own: TestTenant;
  let person: ConsolePerson;
  let fixtures: PositionsFixtures;
  beforeAll(async () => {
    own = await createTenant(suite.app, 'Positions pages');
    person = await consolePerson(suite.app, own.organisationId, 'viewer');
    fixtures = new PositionsFixtures(dataSourceOf(suite.app), own.organisationId);
  });

  it('lists positions with their status and required skills, filtered by status, each linking to its page', async () => {
    const typescript = await fixtures.skill('TypeScript');
    const open = await fixtures.position({
      name: 'Platform lead',
      requiredSkills: [{ skill: typescript, minimumRating: 4 }],
    });
    await fixtures.position({ name: 'Old role', status: 'CLOSED' });
    const page = (await person.agent.get('/console/positions').expect(200)).text;
    for (const column of ['Name', 'Status', 'Department', 'Fill by', 'Required skills']) {
      expect(page).toContain(`<th scope="col">${column}</th>`);
    }
    expect(page).toContain(`<a href="/console/positions/${open.id}">Platform lead</a>`);
    expect(page).toContain('TypeScript ≥ 4');
    const closed = (await person.agent.get('/console/positions?status=CLOSED').expect(200)).text;
    expect(closed).toContain('Old role');
    expect(closed).not.toContain('Platform lead');
  });

  it('shows the best candidates in the API’s order, each with one bar per required skill against its minimum', async () => {
    const [sql, go, rust] = [await fixtures.skill('SQL'), await fixtures.skill('Go'), await fixtures.skill('Rust')];
    const people = [];
    for (let index = 0; index < 12; index++) people.push(await fixtures.employee({ firstName: `Candidate${index}` }));
    for (const [index, candidate] of people.entries()) {
      await fixtures.rating(candidate, sql, index % 6);
      if (index % 2 === 0) await fixtures.rating(candidate, go, 5 - (index % 6));
    }
    const replaced = await fixtures.employee({ firstName: 'Leaving' });
    const position = await fixtures.position({
      name: 'Data engineer',
      replacesEmployeeId: replaced.id,
      requiredSkills: [
        { skill: sql, minimumRating: 4 },
        { skill: go, minimumRating: 3 },
        { skill: rust, minimumRating: 1 },
      ],
      replacements: [{ candidate: people[3], readyAt: new Date('2027-01-01T00:00:00Z'), status: 'PROPOSED' }],
    });
    const ranked = (await api(own.key).get(`/positions/${position.id}/candidates?limit=10`).expect(200)).body
      .data as CandidateResponse[];

    const page = (await person.agent.get(`/console/positions/${position.id}`).expect(200)).text;
    expect(page).toContain('<h1>Data engineer</h1>');
    expect(page).toContain(`<a href="/console/employees/${replaced.id}">Leaving ${replaced.lastName}</a>`);
    expect(rowsOf(page, 'aria-labelledby="required-heading"')).toEqual(
      ['SQL', 'Go', 'Rust'].map((name) => [name, String({ SQL: 4, Go: 3, Rust: 1 }[name])]).sort(),
    );
    expect(rowsOf(page, 'aria-labelledby="replacements-heading"')).toEqual([
      [`Candidate3 ${people[3].lastName}`, '2027-01-01 00:00 UTC', 'PROPOSED', String(4 - 3 + 3 + 1)],
    ]);
    const shown = [...page.matchAll(/<span class="rank">(\d+)\.<\/span> <a href="\/console\/employees\/([\w-]+)">/g)];
    expect(shown.map(([, rank]) => Number(rank))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(shown.map(([, , id]) => id)).toEqual(ranked.map(({ employee }) => employee.id));
    for (const candidate of ranked) {
      const name = `${candidate.employee.firstName} ${candidate.employee.lastName}`;
      const rows = rowsOf(page, { caption: `Scores of ${name} against the minimums` });
      expect(rows).toEqual(
        candidate.skillsGap.map(({ skillName, currentScore, minimumRating }) => [
          skillName,
          currentScore === null ? 'not rated' : String(currentScore),
          String(minimumRating),
        ]),
      );
      const chart = page.slice(page.indexOf(`id="gap-${candidate.employee.id}"`));
      const drawing = chart.slice(0, chart.indexOf('</svg>'));
      expect(drawing.match(/class="chart-track"/g)).toHaveLength(3);
      expect(drawing.match(/class="chart-target"/g)).toHaveLength(3);
    }
    expect(page).toContain(`href="/console/positions/${position.id}?page=2">More candidates</a>`);
    const second = (await person.agent.get(`/console/positions/${position.id}?page=2`).expect(200)).text;
    expect(second).toContain('<span class="rank">11.</span>');
  });

  it('answers 404 for another organisation’s position', async () => {
    const other = await createTenant(suite.app, 'Positions elsewhere');
    const elsewhere = await new PositionsFixtures(dataSourceOf(suite.app), other.organisationId).position({
      name: 'Hidden role',
    });
    const page = await person.agent.get(`/console/positions/${elsewhere.id}`).expect(404);
    expect(page.text).not.toContain('Hidden role');
    expect((await person.agent.get('/console/positions').expect(200)).text).not.toContain('Hidden role');
    await person.agent.get('/console/positions/not-an-id').expect(404);
  });
});
