import { describe, expect, it } from 'vitest';
import { checkDatabaseUrl, DatabaseUrlError } from './database-url';

/** `--database` is checked before anything connects: what is refused, and that no password is said. */

const refused = (text: string) => {
  try {
    checkDatabaseUrl(text, '--database');
  } catch (err) {
    expect(err).toBeInstanceOf(DatabaseUrlError);
    expect((err as Error).message).not.toContain('s3cret');
    return (err as Error).message;
  }
  throw new Error(`accepted: ${text}`);
};

describe('checkDatabaseUrl', () => {
  it('takes postgres:// and postgresql:// URLs with each libpq sslmode, trimmed and otherwise as given', () => {
    for (const mode of ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']) {
      const url = `postgres://skiff:s3cret@db.example:5432/skiff?sslmode=${mode}`;
      expect(checkDatabaseUrl(` ${url}\n`, '--database')).toBe(url);
    }
    expect(checkDatabaseUrl('postgresql://skiff@db/skiff', 'SKIFF_DATABASE_URL')).toBe(
      'postgresql://skiff@db/skiff',
    );
    expect(checkDatabaseUrl('postgres://db/skiff?sslrootcert=system', '--database')).toBe(
      'postgres://db/skiff?sslrootcert=system',
    );
  });

  it('refuses what is not a PostgreSQL URL without repeating it', () => {
    for (const text of ['s3cret', 'mysql://u:s3cret@db/x', 'sqlite:///var/lib/skiff.db', '']) {
      expect(refused(text)).toBe(
        '--database must be a PostgreSQL URL such as postgres://USER:PASSWORD@HOST:5432/DATABASE?sslmode=verify-full (what was given is not repeated here: it may hold a password)',
      );
    }
  });

  it('refuses an unknown sslmode and an sslrootcert file, naming the URL without its password', () => {
    expect(refused('postgres://skiff:s3cret@db/skiff?sslmode=on')).toBe(
      '--database postgres://skiff:***@db/skiff?sslmode=on: sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full',
    );
    expect(refused('postgres://skiff:s3cret@db/skiff?sslrootcert=/etc/ca.pem')).toBe(
      '--database postgres://skiff:***@db/skiff?sslrootcert=/etc/ca.pem: sslrootcert can only be "system"; trust a private CA with NODE_EXTRA_CA_CERTS=FILE',
    );
  });
});
