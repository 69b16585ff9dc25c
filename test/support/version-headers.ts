import type { apiClient, TypedTest } from './api-client';

/**
 * Requests that carry version headers (If-Match, Base-Version) and, for a PATCH, a body, built on the API client's
 * bare `call`: each answer is still checked against the served document, and typed as the shortcuts' are.
 */
export function withVersionHeaders(call: ReturnType<typeof apiClient>['call']) {
  return <T>(method: 'patch' | 'delete', path: string, headers: Record<string, string>, body?: object) => {
    const request = call(method, path);
    for (const [name, value] of Object.entries(headers)) request.set(name, value);
    return (body === undefined ? request : request.send(body)) as unknown as TypedTest<T>;
  };
}
