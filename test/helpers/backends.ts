import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseLocation } from '@feedbackd/server';

/** A fresh, empty database for one test suite, and how to throw it away. */
export interface FreshDatabase {
  location: DatabaseLocation;
  drop(): Promise<void>;
}

/** A database backend the suites run on. */
export interface Backend {
  name: 'embedded' | 'postgres';
  create(): Promise<FreshDatabase>;
}

const embedded: Backend = {
  name: 'embedded',
  async create() {
    const dataDir = mkdtempSync(join(tmpdir(), 'feedback-test-'));
    return { location: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  },
};

/** A database of its own on the TEST_DATABASE_URL server, so suites never see each other's rows. */
function postgres(adminUrl: string): Backend {
  return {
    name: 'postgres',
    async create() {
      const name = `feedback_test_${randomBytes(6).toString('hex')}`;
      await withClient(adminUrl, (client) => client.query(`create database "${name}"`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        location: { databaseUrl: url.toString(), dataDir: '' },
        drop: () => withClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => {}),
      };
    },
  };
}

/** The embedded database always; PostgreSQL as well when TEST_DATABASE_URL is set. */
export function backends(): Backend[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [embedded, postgres(url)] : [embedded];
}

export const embeddedBackend = embedded;

async function withClient<T>(url: string, action: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}
