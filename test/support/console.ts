import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { PeopleService } from '../../src/console/people/people.service';

/** A console person of a test's organisation, signed in through their welcome link. */
export type Agent = ReturnType<typeof request.agent>;

export interface ConsolePerson {
  id: string;
  email: string;
  password: string;
  /** Keeps the session cookie, as a browser would. */
  agent: Agent;
}

export const TEST_PASSWORD = 'a long enough password';

/** The path of a welcome link (its origin is PUBLIC_URL's). */
export function welcomePath(link: string): string {
  return new URL(link).pathname;
}

/** Invites a person (as the command line would) and has them choose TEST_PASSWORD, which signs them in. */
export async function consolePerson(
  app: NestExpressApplication,
  organisationId: string,
  role: 'admin' | 'viewer',
  name = role,
): Promise<ConsolePerson> {
  const email = `${name}-${Math.random().toString(36).slice(2)}@example.com`;
  const { person, link } = await app.get(PeopleService).invite(organisationId, { email, role }, { type: 'cli' });
  const agent = request.agent(app.getHttpServer());
  const chosen = await chooseWelcomePassword(agent, link, TEST_PASSWORD);
  if (chosen.status !== 303) throw new Error(`choosing a password answered ${chosen.status}: ${chosen.text}`);
  return { id: person.id, email, password: TEST_PASSWORD, agent };
}

/**
 * Follows a welcome link as a browser does (its token moves into a cookie, 303 to /console/welcome) and sends
 * the password form there: the answer to that POST.
 */
export async function chooseWelcomePassword(agent: Agent, link: string, password: string) {
  await agent.get(welcomePath(link)).expect(303).expect('Location', '/console/welcome');
  return agent.post('/console/welcome').type('form').send({ password });
}

/** Signs in with email and password on a fresh agent; answers the agent and the response. */
export async function signIn(app: NestExpressApplication, email: string, password: string) {
  const agent = request.agent(app.getHttpServer());
  const response = await agent.post('/console/sign-in').type('form').send({ email, password });
  return { agent, response };
}
