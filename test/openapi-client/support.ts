/** What the flows beside this file share: reading an answer, checking a condition, the environment. */

interface Answer<T, E> {
  data?: T;
  error?: E;
  response: Response;
}

/** The body of a success with the status expected; throws with what came instead. */
export async function expectData<T, E>(pending: Promise<Answer<T, E>>, status: number): Promise<T> {
  const { data, error, response } = await pending;
  if (response.status !== status || data === undefined) {
    throw new Error(`${response.url}: expected ${status}, got ${response.status} ${JSON.stringify(error ?? data)}`);
  }
  return data;
}

/** The body of an error with the status expected. */
export async function expectError<T, E>(pending: Promise<Answer<T, E>>, status: number): Promise<E> {
  const { data, error, response } = await pending;
  if (response.status !== status || error === undefined) {
    throw new Error(`${response.url}: expected ${status}, got ${response.status} ${JSON.stringify(data ?? error)}`);
  }
  return error;
}

export function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`Expected ${what}`);
}

export function environment(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
