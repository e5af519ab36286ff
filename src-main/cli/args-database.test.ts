import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';

/** serve --database / SKIFF_DATABASE_URL and --replica-id / SKIFF_REPLICA_ID (storage/database-url.ts checks the URL). */

const refusal = (argv: string[], env: { database?: string; replicaId?: string } = {}) => {
  try {
    parseServeArgs(argv, { dataDir: '/d', ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message.split('\n')[0];
  }
  throw new Error('accepted');
};

describe('serve: database flags', () => {
  it('uses SQLite in the data dir and the default replica id unless told otherwise', () => {
    const o = parseServeArgs([], { dataDir: '/d', database: '', replicaId: '' });
    expect(o.database).toBeUndefined();
    expect(o.replicaId).toBeUndefined();
  });

  it('takes the URL and replica id from the environment, the flags winning', () => {
    const env = { database: 'postgres://env@db/skiff', replicaId: 'env-0' };
    expect(parseServeArgs([], { dataDir: '/d', ...env })).toMatchObject(env);
    expect(
      parseServeArgs(
        ['--database', 'postgresql://flag@db/skiff?sslmode=require', '--replica-id', 'skiff-1'],
        {
          dataDir: '/d',
          ...env,
        },
      ),
    ).toMatchObject({ database: 'postgresql://flag@db/skiff?sslmode=require', replicaId: 'skiff-1' });
  });

  it('refuses a bad URL naming where it came from, never the password', () => {
    expect(refusal(['--database', 'mysql://u:s3cret@db/x'])).toMatch(/^--database must be a PostgreSQL URL/);
    expect(refusal([], { database: 'postgres://u:s3cret@db/x?sslmode=yes' })).toBe(
      'SKIFF_DATABASE_URL postgres://u:***@db/x?sslmode=yes: sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full',
    );
  });

  it('refuses a replica id that is not a short name', () => {
    for (const id of ['-x', 'a b', 'x'.repeat(101), 'ü']) {
      expect(refusal([`--replica-id=${id}`])).toBe(
        "--replica-id must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit",
      );
    }
    expect(refusal([], { replicaId: 'has/slash' })).toMatch(/^--replica-id must be/);
    expect(parseServeArgs(['--replica-id', `a${'x'.repeat(99)}`], { dataDir: '/d' }).replicaId).toHaveLength(
      100,
    );
  });
});
