import { connect } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSourceOptions } from '../../src/database/data-source-options';
import { startEmbeddedDatabase } from '../../src/database/embedded-database';

/**
 * Picks the database for the whole run and migrates it once: TEST_DATABASE_URL, else a database of
 * this run's own on a local PostgreSQL (dropped afterwards, so parallel runs never meet), else the
 * embedded database in a temporary directory. A server's database is dropped and made anew first,
 * and only when its name says "test".
 */
export default async function globalSetup(): Promise<void> {
  process.env.LOG_LEVEL ??= 'silent';
  let url = process.env.TEST_DATABASE_URL;
  if (!url && (await isListening(5432))) {
    url = `postgres://postgres@127.0.0.1:5432/skills_test_${process.pid}`;
    (globalThis as { ownTestDatabase?: string }).ownTestDatabase = url;
  }
  if (url) {
    await recreateDatabase(url);
  } else {
    const embedded = await startEmbeddedDatabase(mkdtempSync(join(tmpdir(), 'skills-test-')), 8);
    (globalThis as { embeddedTestDatabase?: { close(): Promise<void> } }).embeddedTestDatabase = embedded;
    url = embedded.url;
  }
  process.env.TEST_DATABASE_URL = url;
  const dataSource = await new DataSource(createDataSourceOptions(url, 1)).initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  await dataSource.destroy();
}

/** Drops the database and, unless only dropping, creates it empty. */
export async function recreateDatabase(url: string, drop = false): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name.includes('test')) {
    throw new Error(`Refusing to run tests on database "${name}": its name must contain "test"`);
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    if (!drop) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(500);
    const settle = (listening: boolean) => {
      socket.destroy();
      resolve(listening);
    };
    socket.once('connect', () => settle(true));
    socket.once('error', () => settle(false));
    socket.once('timeout', () => settle(false));
  });
}
