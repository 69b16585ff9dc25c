import { readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Locator, Page } from 'playwright-core';
import { readEscoDirectory } from '../../src/cli/esco-files';
import { PeopleService } from '../../src/console/people/people.service';
import { newId } from '../../src/database/uuid';
import { cliWrite } from '../../src/database/write-context';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { Employee } from '../../src/employees/entities/employee.entity';
import { CandidateResponse } from '../../src/positions/dto/candidate.response';
import { PersonSkill } from '../../src/ratings/entities/person-skill.entity';
import { Rating } from '../../src/ratings/entities/rating.entity';
import { Skill } from '../../src/skills/entities/skill.entity';
import { EscoImportService } from '../../src/skills/esco/esco-import.service';
import { RatingType } from '../../src/skills/rating-types';
import { createTenant, dataSourceOf, TestTenant } from '../support/app';
import {
  Browser,
  describeInBrowser,
  foreignRequests,
  openBrowser,
  screenshot,
  scrollsSideways,
  seriousAccessibilityViolations,
} from '../support/browser';
import { TEST_PASSWORD } from '../support/console';
import { PositionsFixtures } from '../support/positions-fixtures';
import { useTestApp } from '../support/use-test-app';

jest.setTimeout(180_000);

const DAY = 86_400_000;

describeInBrowser('the console’s data pages in Chromium', () => {
  const suite = useTestApp({ tenant: 'none' });
  let origin: string;
  let tenant: TestTenant;
  let browser: Browser;

  /** The organisation's people and skills, made through the API as an integrator would. */
  const people: Record<string, EmployeeResponse> = {};
  const skills: Record<string, string> = {};
  let positionId: string;

  async function callApi<T>(method: 'GET' | 'POST', path: string, body?: object, key = tenant.key) {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, data: (text === '' ? undefined : JSON.parse(text).data) as T };
  }

  async function employee(firstName: string, lastName: string, title: string, key = tenant.key) {
    const personnelNumber = `E-${Math.floor(Math.random() * 1e6)}`;
    const { status, data } = await callApi<EmployeeResponse>(
      'POST',
      '/employees',
      {
        personnelNumber,
        firstName,
        lastName,
        title,
        businessEmail: `${firstName}.${lastName}.${personnelNumber}@example.com`.toLowerCase(),
      },
      key,
    );
    expect(status).toBe(201);
    return data;
  }

  async function rate(person: string, skill: string, score: number, ratingType: RatingType) {
    const { status } = await callApi('POST', `/employees/${people[person].id}/ratings`, {
      skillId: skills[skill],
      score,
      ratingType,
    });
    expect(status).toBe(201);
  }

  /**
   * A rating made `daysAgo` days back, written as the ratings tests' fixtures write them (the API stamps every
   * rating with the moment it is made): a history worth a chart.
   */
  async function rateInThePast(person: string, skill: string, score: number, ratingType: RatingType, daysAgo: number) {
    const dataSource = dataSourceOf(suite.app);
    const [employeeId, skillId] = [people[person].id, skills[skill]];
    const createdAt = new Date(Date.now() - daysAgo * DAY);
    const links = dataSource.getRepository(PersonSkill);
    const link =
      (await links.findOneBy({ employeeId, skillId })) ??
      (await links.save({ id: newId(), organisationId: tenant.organisationId, employeeId, skillId, createdAt }));
    await dataSource.getRepository(Rating).save({
      id: newId(),
      organisationId: tenant.organisationId,
      personSkillId: link.id,
      employeeId,
      skillId,
      score,
      ratingType,
      comment: null,
      createdAt,
    });
  }

  beforeAll(async () => {
    await suite.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(suite.app.getHttpServer().address() as AddressInfo).port}`;
    tenant = await createTenant(suite.app, 'Northwind');
    browser = await openBrowser();

    for (const [first, last, title] of [
      ['Ana', 'Lima', 'Senior data engineer'],
      ['Bruno', 'Costa', 'Data engineer'],
      ['Chiara', 'Rossi', 'Analytics engineer'],
      ['Dmitri', 'Volkov', 'Platform engineer'],
      ['Esther', 'Okafor', 'Data analyst'],
      ['Farid', 'Haddad', 'Backend engineer'],
    ]) {
      people[first] = await employee(first, last, title);
    }
    for (const name of ['SQL', 'Python', 'Kubernetes', 'Data modelling']) {
      const { status, data } = await callApi<{ id: string }>('POST', '/skills', { name });
      expect(status).toBe(201);
      skills[name] = data.id;
    }
    // Ana's SQL, rated three times through the API.
    await rate('Ana', 'SQL', 3, 'SELF_ASSESMENT');
    await rate('Ana', 'SQL', 4, 'MANAGER_EVALUATION');
    await rate('Ana', 'SQL', 5, 'LLM_RATING');
    const pythonHistory: Array<[number, RatingType, number]> = [
      [2, 'SELF_ASSESMENT', 330],
      [2, 'MANAGER_EVALUATION', 300],
      [3, 'LLM_RATING', 240],
      [3, 'MANAGER_EVALUATION', 180],
      [4, 'SELF_ASSESMENT', 120],
      [4, 'MANAGER_EVALUATION', 60],
      [5, 'LLM_RATING', 20],
    ];
    for (const [score, type, daysAgo] of pythonHistory) await rateInThePast('Ana', 'Python', score, type, daysAgo);
    await rateInThePast('Ana', 'Data modelling', 4, 'MANAGER_EVALUATION', 90);
    const others: Array<[string, string, number]> = [
      ['Bruno', 'SQL', 4],
      ['Bruno', 'Python', 3],
      ['Bruno', 'Kubernetes', 2],
      ['Chiara', 'SQL', 5],
      ['Chiara', 'Python', 4],
      ['Dmitri', 'Kubernetes', 5],
      ['Dmitri', 'Python', 2],
      ['Esther', 'SQL', 3],
      ['Farid', 'Python', 4],
      ['Farid', 'Kubernetes', 3],
      ['Farid', 'SQL', 2],
    ];
    for (const [person, skill, score] of others) await rate(person, skill, score, 'MANAGER_EVALUATION');

    const position = await new PositionsFixtures(dataSourceOf(suite.app), tenant.organisationId).position({
      name: 'Lead data engineer',
      department: 'Data platform',
      description: 'Leads the data platform team after Ana moves on.',
      mustBeFilledBy: new Date(Date.now() + 120 * DAY),
      replacesEmployeeId: people.Ana.id,
      requiredSkills: [
        { skill: { id: skills.SQL } as Skill, minimumRating: 4 },
        { skill: { id: skills.Python } as Skill, minimumRating: 4 },
        { skill: { id: skills.Kubernetes } as Skill, minimumRating: 3 },
      ],
      replacements: [
        {
          candidate: { id: people.Chiara.id } as Employee,
          readyAt: new Date(Date.now() + 60 * DAY),
          status: 'PROPOSED',
        },
      ],
    });
    positionId = position.id;
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(() => {
    expect(foreignRequests(browser.requests, [origin])).toEqual([]);
  });

  /** A page of a person invited as the command line would, signed in through their welcome link. */
  async function signedIn(role: 'admin' | 'viewer', organisationId = tenant.organisationId, width = 1280) {
    const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
    const { link } = await suite.app.get(PeopleService).invite(organisationId, { email, role }, { type: 'cli' });
    const page = await browser.newPage(width);
    await page.goto(`${origin}${new URL(link).pathname}`);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Choose password' }).click();
    await page.waitForURL(`${origin}/console/api-keys`);
    return { email, page };
  }

  /** axe-core finds nothing serious or critical, at 1280 px and at 360 px, where nothing scrolls sideways. */
  async function checkPage(page: Page, name: string): Promise<void> {
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${name}-desktop`);
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${name}-360`);
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  const navigation = (page: Page) => page.getByRole('navigation', { name: 'Settings' });

  /** The text of each cell of each body row of a table. */
  async function rowsOf(table: Locator): Promise<string[][]> {
    const rows = table.locator('tbody tr');
    const texts: string[][] = [];
    for (let index = 0; index < (await rows.count()); index++) {
      const cells = await rows.nth(index).locator('th, td').allTextContents();
      texts.push(cells.map((text) => text.replace(/\s+/g, ' ').trim()));
    }
    return texts;
  }

  it('finds an employee by search and shows their skills, and for a skill rated three times a chart whose text lists the three', async () => {
    const { page } = await signedIn('admin');
    await navigation(page).getByRole('link', { name: 'Employees' }).click();
    await page.getByRole('heading', { level: 1, name: 'Employees' }).waitFor();
    for (const column of ['Name', 'Email', 'Title', 'Skills', 'Status']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    await checkPage(page, 'employees');
    await page.getByRole('searchbox', { name: 'Search' }).fill('lima');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 employee matching “lima”.').waitFor();
    const row = page.getByRole('row', { name: /Ana Lima/ });
    expect((await row.getByRole('cell').allTextContents()).map((text) => text.trim())).toEqual([
      'Ana Lima',
      people.Ana.businessEmail,
      'Senior data engineer',
      '3',
      'active',
    ]);
    await row.getByRole('link', { name: 'Ana Lima' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ana Lima' }).waitFor();

    const skillRows = await rowsOf(page.getByRole('table', { name: 'Skills' }));
    expect(skillRows.map(([name, score, type]) => [name, score, type])).toEqual([
      ['Data modelling', '4', 'Manager evaluation'],
      ['Python', '5', 'LLM rating'],
      ['SQL', '5', 'LLM rating'],
    ]);
    const chart = page.getByRole('img', { name: 'Rating history of SQL' });
    await chart.waitFor();
    expect(await chart.locator('.chart-mark').count()).toBe(3);
    const { data: ratings } = await callApi<Array<{ score: number; ratingType: string; createdAt: string }>>(
      'GET',
      `/employees/${people.Ana.id}/ratings?skillId=${skills.SQL}`,
    );
    const labels: Record<string, string> = {
      SELF_ASSESMENT: 'Self-assessment',
      MANAGER_EVALUATION: 'Manager evaluation',
      LLM_RATING: 'LLM rating',
    };
    expect(await rowsOf(page.getByRole('table', { name: 'Rating history of SQL' }))).toEqual(
      [...ratings]
        .reverse()
        .map(({ score, ratingType, createdAt }) => [
          `${createdAt.slice(0, 10)} ${createdAt.slice(11, 16)} UTC`,
          String(score),
          labels[ratingType],
        ]),
    );
    expect(ratings.map(({ score }) => score)).toEqual([5, 4, 3]);
    expect(await page.getByRole('table', { name: 'Rating history of Python' }).locator('tbody tr').count()).toBe(7);
    await checkPage(page, 'employee');
    await page.context().close();
  });

  it('opens an ESCO group of the catalogue to its children, and a skill’s page shows its aliases and scores as the API counts them', async () => {
    const esco = await createTenant(suite.app, 'ESCO catalogue');
    const input = await readEscoDirectory(join(__dirname, '..', 'fixtures', 'esco'), () => undefined);
    await suite.app.get(EscoImportService).import(esco.organisationId, input, { dryRun: false }, cliWrite());
    type Group = { id: string; name: string };
    const { data: roots } = await callApi<Group[]>('GET', '/skill-groups?parentId=root&limit=100', undefined, esco.key);
    let opened: { group: Group; children: Group[] } | undefined;
    for (const group of roots) {
      const { data: children } = await callApi<Group[]>(
        'GET',
        `/skill-groups?parentId=${group.id}`,
        undefined,
        esco.key,
      );
      if (children.length > 0) {
        opened = { group, children };
        break;
      }
    }
    expect(opened).toBeDefined();
    const { page } = await signedIn('viewer', esco.organisationId);
    await navigation(page).getByRole('link', { name: 'Skills' }).click();
    await page.getByRole('heading', { level: 1, name: 'Skills' }).waitFor();
    await checkPage(page, 'skills');
    await page
      .getByRole('list', { name: 'Groups' })
      .getByRole('link', { name: opened!.group.name, exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: opened!.group.name }).waitFor();
    const below = page.getByRole('list', { name: 'Groups below' });
    expect((await below.getByRole('link').allTextContents()).map((text) => text.trim()).sort()).toEqual(
      opened!.children.map(({ name }) => name).sort(),
    );
    await checkPage(page, 'skill-group');

    // A skill of the excerpt with aliases, rated through the API: its page shows them and counts its scores.
    type Skill = { id: string; name: string; aliases: string[]; ratingScaleMin: number; ratingScaleMax: number };
    const { data: withAliases } = await callApi<Skill[]>('GET', '/skills?limit=100', undefined, esco.key);
    const skill = withAliases.find(({ aliases }) => aliases.length > 1)!;
    for (const [index, score] of [3, 3, 1].entries()) {
      const person = await employee('Rated', `Person${index}`, 'Engineer', esco.key);
      const { status } = await callApi(
        'POST',
        `/employees/${person.id}/ratings`,
        { skillId: skill.id, score, ratingType: 'MANAGER_EVALUATION' },
        esco.key,
      );
      expect(status).toBe(201);
    }
    await page.goto(`${origin}/console/skills?search=${encodeURIComponent(skill.aliases[0])}`);
    await page.getByRole('link', { name: skill.name, exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: skill.name }).waitFor();
    for (const alias of skill.aliases) await page.getByText(alias, { exact: false }).first().waitFor();
    const { data: listed } = await callApi<Array<{ latestRating: { score: number } | null }>>(
      'GET',
      `/skills/${skill.id}/employees?isActive=true&limit=100`,
      undefined,
      esco.key,
    );
    const scale = Array.from(
      { length: skill.ratingScaleMax - skill.ratingScaleMin + 1 },
      (_, index) => skill.ratingScaleMin + index,
    );
    expect(
      await rowsOf(page.getByRole('table', { name: `Active employees by latest score on ${skill.name}` })),
    ).toEqual(
      scale.map((score) => [
        `Score ${score}`,
        String(listed.filter(({ latestRating }) => latestRating?.score === score).length),
      ]),
    );
    await checkPage(page, 'skill');
    await page.context().close();
  });

  it('shows a position’s best candidates in the API’s order, each with one gap bar per required skill', async () => {
    const { page } = await signedIn('admin');
    await navigation(page).getByRole('link', { name: 'Positions' }).click();
    await page.getByRole('heading', { level: 1, name: 'Positions' }).waitFor();
    await checkPage(page, 'positions');
    await page.getByRole('link', { name: 'Lead data engineer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lead data engineer' }).waitFor();

    const { data: ranked } = await callApi<CandidateResponse[]>('GET', `/positions/${positionId}/candidates?limit=10`);
    const list = page.getByRole('list', { name: 'Best candidates' });
    const cards = list.getByRole('listitem');
    expect(await cards.count()).toBe(ranked.length);
    for (const [index, candidate] of ranked.entries()) {
      const name = `${candidate.employee.firstName} ${candidate.employee.lastName}`;
      const card = cards.nth(index);
      const heading = await card.getByRole('heading', { level: 3 }).textContent();
      expect(heading?.replace(/\s+/g, ' ').trim()).toBe(`${index + 1}. ${name}`);
      const chart = card.getByRole('img', { name: `Scores of ${name} against the minimums` });
      expect(await chart.locator('.chart-track').count()).toBe(3);
      expect(await chart.locator('.chart-target').count()).toBe(3);
      expect(await rowsOf(card.getByRole('table', { name: `Scores of ${name} against the minimums` }))).toEqual(
        candidate.skillsGap.map(({ skillName, currentScore, minimumRating }) => [
          skillName,
          currentScore === null ? 'not rated' : String(currentScore),
          String(minimumRating),
        ]),
      );
    }
    await checkPage(page, 'position');
    await page.context().close();
  });

  it('downloads "Export personal data" as JSON equal to the API’s, and Activity lists it', async () => {
    const { page } = await signedIn('viewer');
    await page.goto(`${origin}/console/employees/${people.Bruno.id}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export personal data' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`personal-data-${people.Bruno.id}.json`);
    const exported: unknown = JSON.parse(readFileSync(await download.path(), 'utf8'));
    const { status, data } = await callApi('GET', `/employees/${people.Bruno.id}/personal-data`);
    expect(status).toBe(200);
    expect(exported).toEqual(data);
    await navigation(page).getByRole('link', { name: 'Activity' }).click();
    await page
      .getByRole('row', { name: new RegExp(`personal data exported ${people.Bruno.id}`) })
      .first()
      .waitFor();
    await page.context().close();
  });

  it('erases nothing with the wrong personnel number, and erases with the right one: the API answers 404, Activity lists it', async () => {
    const leaver = await employee('Greta', 'Lind', 'Data engineer');
    const { page } = await signedIn('admin');
    await page.goto(`${origin}/console/employees/${leaver.id}`);
    await page.getByRole('button', { name: 'Erase employee' }).click();
    await page.getByRole('heading', { level: 1, name: 'Erase employee' }).waitFor();
    await checkPage(page, 'employee-erase');
    await page.getByLabel('Personnel number').fill('E-not-theirs');
    await page.getByRole('button', { name: 'Erase', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'nothing was erased' }).waitFor();
    expect((await callApi('GET', `/employees/${leaver.id}`)).status).toBe(200);

    await page.getByLabel('Personnel number').fill(leaver.personnelNumber);
    await page.getByRole('button', { name: 'Erase', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Erased employee ${leaver.id}` })
      .waitFor();
    expect((await callApi('GET', `/employees/${leaver.id}`)).status).toBe(404);
    expect(await page.getByText('Greta Lind').count()).toBe(0);
    await navigation(page).getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('row', { name: new RegExp(`employee erased ${leaver.id}`) }).waitFor();
    await page.context().close();
  });

  it('lets a viewer read every data page, shows no erase control, and refuses a forged erase with 403', async () => {
    const { page } = await signedIn('viewer');
    await navigation(page).getByRole('link', { name: 'Employees' }).click();
    await page.getByRole('link', { name: 'Dmitri Volkov' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dmitri Volkov' }).waitFor();
    await page.getByRole('img', { name: 'Rating history of Kubernetes' }).waitFor();
    await page.getByRole('button', { name: 'Export personal data' }).waitFor();
    expect(await page.getByRole('button', { name: /Erase/ }).count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const status = await page.evaluate(
      async ([path, personnelNumber]) => {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `personnelNumber=${encodeURIComponent(personnelNumber)}`,
        });
        return response.status;
      },
      [`/console/employees/${people.Dmitri.id}/erase`, people.Dmitri.personnelNumber],
    );
    expect(status).toBe(403);
    expect((await callApi('GET', `/employees/${people.Dmitri.id}`)).status).toBe(200);
    expect((await page.goto(`${origin}/console/employees/${people.Dmitri.id}/erase`))?.status()).toBe(403);

    await page.goto(`${origin}/console/positions`);
    await page.getByRole('link', { name: 'Lead data engineer' }).click();
    await page.getByRole('list', { name: 'Best candidates' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('answers 404 for another organisation’s employee and position', async () => {
    const other = await createTenant(suite.app, 'Elsewhere');
    const stranger = await employee('Stranger', 'Elsewhere', 'Hidden', other.key);
    const hidden = await new PositionsFixtures(dataSourceOf(suite.app), other.organisationId).position({
      name: 'Hidden role',
    });
    const { page } = await signedIn('admin');
    for (const path of [
      `/console/employees/${stranger.id}`,
      `/console/employees/${stranger.id}/erase`,
      `/console/positions/${hidden.id}`,
    ]) {
      const response = await page.goto(`${origin}${path}`);
      expect(response?.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
      expect(await page.getByText(/Stranger|Hidden role/).count()).toBe(0);
    }
    await page.goto(`${origin}/console/employees?search=stranger`);
    await page.getByText('0 employees matching “stranger”.').waitFor();
    await page.context().close();
  });
});
