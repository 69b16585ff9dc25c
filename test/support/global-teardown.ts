export default async function globalTeardown(): Promise<void> {
  await (globalThis as { embeddedTestDatabase?: { close(): Promise<void> } }).embeddedTestDatabase?.close();
}
