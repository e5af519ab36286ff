/**
 * The first administrator, and what is said about its password.
 *
 * Rules:
 * - Made only while no account exists, once across replicas sharing one database: the database
 *   decides which start made it (Accounts.createFirstAdmin); the others start with it.
 * - A generated password is shown once, by the start that made it, and kept only in a file
 *   readable by its owner, deleted once the admin chooses a password.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FirstLogin } from '../../../src-shared/contract/auth-models';
import { MIN_PASSWORD_LENGTH } from '../../../src-shared/contract/auth-operations';
import type { Logger } from '../logger';
import { type Accounts, BOOTSTRAP_ADMIN } from './accounts';
import type { AdminCreatedInfo } from './options';
import { generatePassword } from './passwords';

export const ADMIN_PASSWORD_FILE = 'initial-admin-password';

/** Printed, not logged: log lines travel to places a one-time password must not. */
export function printAdminCreated(info: AdminCreatedInfo): void {
  if (info.reminder) {
    // A later start prints the place again, not the password: it was shown once, and is in the file.
    process.stderr.write(
      `skiff: account "${info.username}" still has the password generated at first start; ` +
        `it is in ${info.passwordFile} (readable only by you). Change it with POST /v1/auth/password.\n`,
    );
    return;
  }
  if (info.generatedPassword === undefined) {
    process.stderr.write(
      `skiff: created account "${info.username}" with the configured password (SKIFF_ADMIN_PASSWORD)\n`,
    );
    return;
  }
  const where = info.passwordFile ? ` (also written to ${info.passwordFile}, readable only by you)` : '';
  process.stderr.write(
    `skiff: created account "${info.username}" with password ${info.generatedPassword}${where}. ` +
      'It is shown only this once; change it with POST /v1/auth/password.\n',
  );
}

/**
 * Where the generated first password is, while `admin` is the only account and has never changed
 * its password: the file it was written to, or null when it was only printed (no data dir; then
 * only for the run that generated it). Null otherwise: a configured password (SKIFF_ADMIN_PASSWORD)
 * was never generated, and a changed one deleted the file.
 */
export function firstLoginOf(
  accounts: Accounts,
  dataDir: string | undefined,
  generatedNow: boolean,
): FirstLogin | null {
  const all = accounts.list();
  const only = all[0];
  if (all.length !== 1 || only!.username !== BOOTSTRAP_ADMIN || only!.passwordChangedAt !== only!.createdAt)
    return null;
  if (!dataDir) return generatedNow ? { username: BOOTSTRAP_ADMIN, passwordFile: null } : null;
  const file = join(dataDir, ADMIN_PASSWORD_FILE);
  return existsSync(file) ? { username: BOOTSTRAP_ADMIN, passwordFile: file } : null;
}

/**
 * First start: the `admin` account, with the given password or a generated one. Later starts
 * leave accounts alone (the password is never reset from the environment), and say again where
 * the generated password is while it is still the only way in. Answers whether this start
 * generated it.
 *
 * Replicas starting together on one empty database each see no account; the database makes one
 * `admin` of their attempts (Accounts.createFirstAdmin), the others start with it, and only the
 * password that works is ever shown.
 */
export async function bootstrapAdmin(
  accounts: Accounts,
  opts: {
    adminPassword?: string;
    dataDir?: string;
    onAdminCreated?: (info: AdminCreatedInfo) => void;
    logger: Logger;
  },
): Promise<boolean> {
  if (!accounts.isEmpty) {
    if (opts.adminPassword !== undefined) {
      opts.logger.info(
        'accounts exist already; the given admin password applies only on first start and was ignored',
      );
    }
    remindWhere(accounts, opts);
    return false;
  }
  if (opts.adminPassword !== undefined && opts.adminPassword.length < MIN_PASSWORD_LENGTH) {
    throw new RangeError(`SKIFF_ADMIN_PASSWORD must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const generated = opts.adminPassword === undefined ? generatePassword() : undefined;
  const made = await accounts.createFirstAdmin(BOOTSTRAP_ADMIN, opts.adminPassword ?? generated!);
  if (!made) {
    // Its password (and file, if any) is the other replica's to show; this one's would let nobody in.
    opts.logger.info('another replica created the first administrator at the same moment; using that one');
    remindWhere(accounts, opts);
    return false;
  }
  const info: AdminCreatedInfo = { username: BOOTSTRAP_ADMIN };
  if (generated !== undefined) {
    info.generatedPassword = generated;
    if (opts.dataDir) {
      info.passwordFile = join(opts.dataDir, ADMIN_PASSWORD_FILE);
      writeFileSync(info.passwordFile, `${generated}\n`, { mode: 0o600 });
    }
  }
  opts.logger.info(
    { username: BOOTSTRAP_ADMIN, generated: generated !== undefined },
    'created the first administrator',
  );
  (opts.onAdminCreated ?? printAdminCreated)(info);
  return generated !== undefined;
}

/** Where the generated password still is, when it is still the only way in (a later start). */
function remindWhere(
  accounts: Accounts,
  opts: { dataDir?: string; onAdminCreated?: (info: AdminCreatedInfo) => void },
): void {
  const pending = firstLoginOf(accounts, opts.dataDir, false);
  if (pending?.passwordFile) {
    (opts.onAdminCreated ?? printAdminCreated)({
      username: pending.username,
      passwordFile: pending.passwordFile,
      reminder: true,
    });
  }
}

/** Once the admin has chosen a password, the generated one must not linger on disk. */
export function forgetInitialPassword(dataDir: string | undefined, username: string): void {
  if (!dataDir || username !== BOOTSTRAP_ADMIN) return;
  const file = join(dataDir, ADMIN_PASSWORD_FILE);
  if (existsSync(file)) rmSync(file, { force: true });
}
