import request from 'supertest';
import { PeopleService } from '../../src/console/people/people.service';
import { TEST_PASSWORD, welcomePath } from '../support/console';
import { useTestApp } from '../support/use-test-app';

const cookiesOf = (response: request.Response): string[] =>
  ([] as string[]).concat(response.headers['set-cookie'] ?? []);
const cookieOf = (response: request.Response, name: string) =>
  cookiesOf(response).find((cookie) => cookie.startsWith(`${name}=`));

/**
 * docs/api-decisions.md: a welcome link is `…/console/welcome/<token>`, single use, 72 hours; its token never stays in
 * a URL.
 */
describe('a welcome link', () => {
  const context = useTestApp({ config: { publicUrl: 'http://console.test' } });
  const server = () => context.app.getHttpServer();

  /** A person invited as the command line does: their email, link and the link's token. */
  async function invited() {
    const email = `welcome-${Math.random().toString(36).slice(2)}@example.com`;
    const { link } = await context.app
      .get(PeopleService)
      .invite(context.tenant.organisationId, { email, role: 'viewer' }, { type: 'cli' });
    return { email, path: welcomePath(link), token: link.slice(link.lastIndexOf('/') + 1) };
  }

  it('moves its token into a sealed, short-lived HttpOnly cookie and sends the browser to a URL without it', async () => {
    const { email, path, token } = await invited();
    const browser = request.agent(server());
    const opened = await browser.get(path).expect(303).expect('Location', '/console/welcome');
    expect(opened.headers['cache-control']).toBe('no-store');
    const cookie = cookieOf(opened, 'console_welcome');
    expect(cookie).toMatch(/^console_welcome=[\w%-]+; Path=\/console\/welcome; HttpOnly; SameSite=Lax; Max-Age=900$/);
    expect(decodeURIComponent(cookie!)).not.toContain(token);

    const form = await browser.get('/console/welcome').expect(200);
    expect(form.text).toContain(email);
    expect(form.text).toContain('<form method="post" action="/console/welcome">');
    expect(form.text).not.toContain(token);
  });

  it('works each time it is opened until a password is chosen with it, then never again', async () => {
    const { email, path } = await invited();
    const [first, second] = [request.agent(server()), request.agent(server())];
    await first.get(path).expect(303);
    await first.get(path).expect(303);
    await second.get(path).expect(303);

    const chosen = await first.post('/console/welcome').type('form').send({ password: TEST_PASSWORD }).expect(303);
    expect(chosen.headers.location).toBe('/console/api-keys');
    expect(cookieOf(chosen, 'console_welcome')).toMatch(/^console_welcome=; Path=\/console\/welcome; .*Max-Age=0/);
    expect(cookieOf(chosen, 'console_session')).toBeDefined();
    expect((await first.get('/console/people').expect(200)).text).toContain(email);

    // Spent: the other tab's cookie, the link and its old form's target all end at the same page.
    const spent = await second.post('/console/welcome').type('form').send({ password: TEST_PASSWORD }).expect(404);
    expect(cookieOf(spent, 'console_session')).toBeUndefined();
    expect((await second.get('/console/welcome').expect(404)).text).toContain('This welcome link does not work');
    const again = await request(server()).get(path).expect(404);
    expect(cookieOf(again, 'console_welcome')).toBeUndefined();
    await request(server()).post(path).type('form').send({ password: TEST_PASSWORD }).expect(404);
  });

  it('answers an unknown link with 404 and no cookie', async () => {
    const unknown = await request(server())
      .get(`/console/welcome/${'x'.repeat(43)}`)
      .expect(404);
    expect(unknown.text).toContain('This welcome link does not work');
    expect(cookiesOf(unknown)).toEqual([]);
  });

  it('asks to open the link again when the form comes without its cookie, with a forged one or after 15 minutes', async () => {
    const { path } = await invited();
    const again = 'Open your welcome link again';
    expect((await request(server()).get('/console/welcome').expect(404)).text).toContain(again);
    await request(server()).post('/console/welcome').type('form').send({ password: TEST_PASSWORD }).expect(404);
    const forged = await request(server()).get('/console/welcome').set('Cookie', 'console_welcome=AAAA').expect(404);
    expect(forged.text).toContain(again);

    const browser = request.agent(server());
    await browser.get(path).expect(303);
    const now = Date.now();
    const later = jest.spyOn(Date, 'now').mockReturnValue(now + 15 * 60_000 + 1000);
    try {
      expect((await browser.get('/console/welcome').expect(404)).text).toContain(again);
    } finally {
      later.mockRestore();
    }
    // The link itself still works.
    await browser.get(path).expect(303);
    await browser.get('/console/welcome').expect(200);
  });

  it('shows the form again for a password the rules refuse, keeping the token for the next try', async () => {
    const { path } = await invited();
    const browser = request.agent(server());
    await browser.get(path).expect(303);
    const refused = await browser.post('/console/welcome').type('form').send({ password: 'short' }).expect(400);
    expect(refused.text).toContain('<form method="post" action="/console/welcome">');
    await browser.post('/console/welcome').type('form').send({ password: TEST_PASSWORD }).expect(303);
  });

  it('still takes the password at the link itself, where the form of 4.0.0 sends it, once', async () => {
    const { email, path, token } = await invited();
    const browser = request.agent(server());
    // A refused password answers the new form, at the URL without the token.
    const refused = await browser.post(path).type('form').send({ password: 'short' }).expect(400);
    expect(refused.text).toContain('<form method="post" action="/console/welcome">');
    expect(refused.text).not.toContain(token);
    await browser.post(path).type('form').send({ password: TEST_PASSWORD }).expect(303);
    expect((await browser.get('/console/people').expect(200)).text).toContain(email);
    await request(server()).post(path).type('form').send({ password: TEST_PASSWORD }).expect(404);
  });
});
