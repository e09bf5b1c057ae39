import pg from 'pg';

/** The same server and credentials as `url`, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** Creates an empty database, or a copy of `template` (a database nobody is connected to). */
export async function createDatabase(serverUrl: string, database: string, template?: string): Promise<void> {
  await withClient(serverUrl, (client) =>
    client.query(
      `create database ${client.escapeIdentifier(database)}` +
        (template ? ` template ${client.escapeIdentifier(template)}` : ''),
    ),
  );
}

/** Drops the database even while clients are still connected to it. */
export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  await withClient(serverUrl, (client) =>
    client.query(`drop database if exists ${client.escapeIdentifier(database)} with (force)`),
  );
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
