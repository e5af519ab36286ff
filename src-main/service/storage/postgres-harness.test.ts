import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { postgresSkipReason, startPostgres } from './postgres.test-support';

/** The test harness's own proof: a real server starts, serves a client, and is gone after stop. */
describe.skipIf(postgresSkipReason !== undefined)(
  `the PostgreSQL test server${postgresSkipReason ? ` (skipped: ${postgresSkipReason})` : ''}`,
  () => {
    it('starts, takes a table and gives it back, and stops leaving no folder and no listener', async () => {
      const pg = await startPostgres();
      let stopped = false;
      try {
        const url = await pg.createDatabase();
        const sql = postgres(url, { max: 2, onnotice: () => {} });
        try {
          const [version] = await sql<{ server_version_num: string }[]>`SHOW server_version_num`;
          expect(Number(version!.server_version_num)).toBeGreaterThanOrEqual(150000);
          const [addr] = await sql<{ a: string | null }[]>`SELECT inet_server_addr()::text AS a`;
          expect(addr!.a).toBe('127.0.0.1/32');
          await sql`CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`;
          await sql`INSERT INTO things ${sql([
            { id: 1, name: 'one' },
            { id: 2, name: 'two' },
          ])}`;
          expect(await sql`SELECT id, name FROM things ORDER BY id`).toEqual([
            { id: 1, name: 'one' },
            { id: 2, name: 'two' },
          ]);
        } finally {
          await sql.end();
        }
        await pg.stop();
        stopped = true;
        expect(existsSync(pg.dir)).toBe(false);
        // Nothing listens on its port any more.
        const refused = await new Promise<boolean>((resolve) => {
          const socket = createConnection({ host: '127.0.0.1', port: pg.port });
          socket.once('connect', () => {
            socket.destroy();
            resolve(false);
          });
          socket.once('error', () => resolve(true));
        });
        expect(refused).toBe(true);
      } finally {
        if (!stopped) await pg.stop();
      }
    });
  },
);
