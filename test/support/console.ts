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
  const { person, link } = await app.get(PeopleService).invite(organisationId, { email, role }, { who: 'cli' });
  const agent = request.agent(app.getHttpServer());
  await agent.post(welcomePath(link)).type('form').send({ password: TEST_PASSWORD }).expect(303);
  return { id: person.id, email, password: TEST_PASSWORD, agent };
}

/** Signs in with email and password on a fresh agent; answers the agent and the response. */
export async function signIn(app: NestExpressApplication, email: string, password: string) {
  const agent = request.agent(app.getHttpServer());
  const response = await agent.post('/console/sign-in').type('form').send({ email, password });
  return { agent, response };
}
