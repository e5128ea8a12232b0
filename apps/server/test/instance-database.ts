import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A database of its own on the test PostgreSQL (PARLEY_TEST_DATABASE_URL), for tests that start
 * built servers on it (several instances share it): its URL, and `drop` for the end.
 */
export async function freshPgDatabase(prefix: string) {
  const adminUrl = process.env.PARLEY_TEST_DATABASE_URL!;
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  return {
    url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
