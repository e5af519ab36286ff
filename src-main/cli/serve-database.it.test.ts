import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceArgs } from '../../scripts/serve.mjs';
import {
  postgresSkipReason,
  startPostgres,
  type TestPostgres,
} from '../service/storage/postgres.test-support';

/**
 * `serve --database` / SKIFF_DATABASE_URL as a process: a URL it cannot use, and a database it
 * cannot open, are one line on stderr and exit 2 before anything listens, naming the database
 * without its password. (Serving over PostgreSQL is the replicas test's: replicas.it.test.ts.)
 */

let dir: string;
let pg: TestPostgres | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-serve-db-'));
  if (!postgresSkipReason) pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Runs serve to its exit: [exit code, stdout, stderr]. */
function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<[number | null, string, string]> {
  const child = spawn(process.execPath, serviceArgs(['--data-dir', dir, '--no-in-cluster', ...args]), {
    env: {
      ...process.env,
      SKIFF_LOG_LEVEL: 'error',
      SKIFF_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve([code, out, err])));
}

describe('serve --database', () => {
  it('refuses a URL that is not PostgreSQL’s with exit 2, never repeating it', async () => {
    const [code, out, err] = await run(['--database', 'mysql://skiff:s3cret@db/skiff']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^skiff: --database must be a PostgreSQL URL/);
    expect(err).not.toContain('s3cret');
  });

  it('takes SKIFF_DATABASE_URL, and says an unknown sslmode naming it without the password', async () => {
    const [code, , err] = await run([], {
      SKIFF_DATABASE_URL: 'postgres://skiff:s3cret@db/skiff?sslmode=maybe',
    });
    expect(code).toBe(2);
    expect(err).toContain(
      'SKIFF_DATABASE_URL postgres://skiff:***@db/skiff?sslmode=maybe: sslmode must be one of',
    );
    expect(err).not.toContain('s3cret');
  });

  it.skipIf(postgresSkipReason !== undefined)(
    'a database it cannot open is one line and exit 2, naming it without the password',
    async () => {
      const url = pg!.url('missing').replace('skiff@', 'skiff:s3cret@');
      const [code, out, err] = await run(['--database', url]);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err.trim()).toBe(
        `skiff: cannot open the database ${url.replace('s3cret', '***')}: database "missing" does not exist`,
      );
    },
    60_000,
  );

  it.skipIf(postgresSkipReason !== undefined)(
    'sslmode=require against a server without TLS is refused the same way (sslmode is read from the URL)',
    async () => {
      const url = `${await pg!.createDatabase()}?sslmode=require`;
      const [code, , err] = await run(['--database', url]);
      expect(code).toBe(2);
      expect(err).toMatch(
        /^skiff: cannot open the database postgres:\/\/skiff@127\.0\.0\.1:\d+\/\w+\?sslmode=require: /,
      );
    },
    60_000,
  );
});
