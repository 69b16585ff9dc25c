/**
 * Asks `read` every `intervalMs` until it answers something other than `undefined` or `false`, and
 * answers that; throws, naming `what`, once `timeoutMs` have passed without. For what a test cannot be
 * told about directly: a row another process writes, a line a child prints, a request a receiver gets.
 */
export async function waitUntil<T>(
  read: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  { timeoutMs = 15_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
