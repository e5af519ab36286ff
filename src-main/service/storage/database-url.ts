import { redactUrl } from './postgres-backend';

/**
 * `--database` / `SKIFF_DATABASE_URL`: which database the service keeps its state in.
 *
 * Rules:
 * - Only PostgreSQL URLs (`postgres://` or `postgresql://`, libpq's form): the embedded SQLite in
 *   the data dir is what no URL means, so there is no `sqlite:` spelling to get wrong.
 * - TLS is the URL's `sslmode`, as libpq reads it: disable, allow, prefer, require, verify-ca,
 *   verify-full (the client verifies the host name under verify-ca too: stricter, never weaker).
 *   A private CA is trusted with NODE_EXTRA_CA_CERTS or `sslrootcert=system` for the system's;
 *   an `sslrootcert=FILE` is refused rather than silently not read by the client.
 * - Every message names the URL without its password, and an unparsable URL not at all (it may be
 *   a password pasted in the wrong place).
 */

export class DatabaseUrlError extends Error {}

const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

/** Checks `text` is a PostgreSQL URL the client will read as written; answers it unchanged. */
export function checkDatabaseUrl(text: string, source: string): string {
  const url = URL.parse(text.trim());
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:'))
    throw new DatabaseUrlError(
      `${source} must be a PostgreSQL URL such as postgres://USER:PASSWORD@HOST:5432/DATABASE?sslmode=verify-full (what was given is not repeated here: it may hold a password)`,
    );
  const where = redactUrl(url.toString());
  const mode = url.searchParams.get('sslmode');
  if (mode !== null && !SSL_MODES.includes(mode))
    throw new DatabaseUrlError(`${source} ${where}: sslmode must be one of ${SSL_MODES.join(', ')}`);
  const root = url.searchParams.get('sslrootcert');
  if (root !== null && root !== 'system')
    throw new DatabaseUrlError(
      `${source} ${where}: sslrootcert can only be "system"; trust a private CA with NODE_EXTRA_CA_CERTS=FILE`,
    );
  return text.trim();
}
