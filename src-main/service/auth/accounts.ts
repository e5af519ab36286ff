import type { Account, AccountRole } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import type { StorageBackend } from '../storage/backend';
import { accountParams, deleteAccount, loadAccount, loadAccounts, saveAccount } from './auth-tables';
import { DEFAULT_PASSWORD_COST, hashPassword, needsRehash, verifyPassword } from './passwords';
import type { ReplicaSync } from './replica-sync';
import { newId } from './secrets';
import { iso, type StoredAccount } from './state';

export const BOOTSTRAP_ADMIN = 'admin';

export interface NewAccount {
  username: string;
  password: string;
  role?: AccountRole;
  workspaces?: string[];
}

export interface AccountPatch {
  role?: AccountRole;
  workspaces?: string[];
  password?: string;
}

/**
 * The first account, only while there is none: one statement, so replicas starting together on one
 * empty database make one row between them. On PostgreSQL the statements that all saw the table
 * empty wait on the username's unique index for the first to commit, then do nothing; on SQLite
 * writes are serial and NOT EXISTS sees the first. The columns are SAVE_ACCOUNT's (auth-tables.ts);
 * the casts type the parameters, which PostgreSQL cannot infer in a SELECT list.
 */
const INSERT_FIRST_ACCOUNT = `INSERT INTO accounts (account_id, username, role, workspaces, password_hash, created_at, password_changed_at, source, oidc_groups)
     SELECT CAST($id AS TEXT), CAST($username AS TEXT), CAST($role AS TEXT), CAST($workspaces AS TEXT),
       CAST($hash AS TEXT), CAST($created AS BIGINT), CAST($changed AS BIGINT), CAST($source AS TEXT),
       CAST($groups AS TEXT)
     WHERE NOT EXISTS (SELECT 1 FROM accounts)
     ON CONFLICT DO NOTHING`;

/** The database refused a second account of that name (another replica made it first). */
const isUniqueViolation = (err: unknown) => /unique/i.test(String((err as Error)?.message));

/**
 * Local accounts. Usernames are case-insensitive (stored lower-case); passwords only as scrypt
 * hashes. Held in memory (every request reads its account) and written through, one row per change
 * (written before memory takes it), then announced to the other replicas (replica-sync.ts).
 */
export class Accounts {
  private accounts: StoredAccount[] = [];
  /** Verified against when the username is unknown, so both failures cost the same time. */
  private dummyHash: Promise<string> | undefined;

  private constructor(
    private readonly db: StorageBackend,
    private readonly now: () => number,
    private readonly cost: number,
    private readonly sync: ReplicaSync,
  ) {}

  static async load(
    db: StorageBackend,
    now: () => number,
    sync: ReplicaSync,
    cost = DEFAULT_PASSWORD_COST,
  ): Promise<Accounts> {
    const accounts = new Accounts(db, now, cost, sync);
    accounts.accounts = await loadAccounts(db);
    return accounts;
  }

  /** Prepares the stand-in hash now, so the first unknown-username login is not slower than the rest. */
  async warmUp(): Promise<void> {
    this.dummyHash ??= hashPassword('not a password of anyone', this.cost);
    await this.dummyHash;
  }

  get isEmpty(): boolean {
    return this.accounts.length === 0;
  }

  list(): StoredAccount[] {
    return [...this.accounts].sort((a, b) => a.createdAt - b.createdAt);
  }

  get(accountId: string): StoredAccount | undefined {
    return this.accounts.find((a) => a.accountId === accountId);
  }

  byUsername(username: string): StoredAccount | undefined {
    const name = username.trim().toLowerCase();
    return this.accounts.find((a) => a.username === name);
  }

  async create(input: NewAccount): Promise<StoredAccount> {
    const username = input.username.trim().toLowerCase();
    const passwordHash = await hashPassword(input.password, this.cost);
    // Checked after the slow hash so that two concurrent creations cannot both pass.
    if (this.byUsername(username)) {
      throw new ProblemError('account_exists', `an account named "${username}" already exists`);
    }
    const at = this.now();
    const role = input.role ?? 'member';
    const account: StoredAccount = {
      accountId: newId(),
      username,
      role,
      workspaces: role === 'admin' ? [] : [...new Set(input.workspaces ?? [])],
      passwordHash,
      createdAt: at,
      passwordChangedAt: at,
      source: 'local',
      groups: [],
    };
    try {
      await this.db.transaction('create account', (tx) => saveAccount(tx, account));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await this.changed(account.accountId);
      throw new ProblemError('account_exists', `an account named "${username}" already exists`);
    }
    this.accounts = [...this.accounts.filter((a) => a.username !== username), account];
    await this.sync.changed('account', account.accountId);
    return account;
  }

  /**
   * The first administrator, made only while no account exists at all (INSERT_FIRST_ACCOUNT).
   * Answers it when this call made it; undefined when another replica made the first account at
   * the same moment, which memory then holds, read from the table.
   */
  async createFirstAdmin(username: string, password: string): Promise<StoredAccount | undefined> {
    const passwordHash = await hashPassword(password, this.cost);
    const at = this.now();
    const account: StoredAccount = {
      accountId: newId(),
      username,
      role: 'admin',
      workspaces: [],
      passwordHash,
      createdAt: at,
      passwordChangedAt: at,
      source: 'local',
      groups: [],
    };
    if ((await this.db.run(INSERT_FIRST_ACCOUNT, accountParams(account))) === 0) {
      await this.reloadAll();
      return undefined;
    }
    this.accounts = [account];
    await this.sync.changed('account', account.accountId);
    return account;
  }

  /**
   * The account when the password is right; null otherwise, in the same time for an unknown name.
   * Accounts the identity provider made have no password: they are answered as unknown names.
   */
  async verify(username: string, password: string): Promise<StoredAccount | null> {
    const found = this.byUsername(username);
    const account = found?.source === 'oidc' ? undefined : found;
    this.dummyHash ??= hashPassword('not a password of anyone', this.cost);
    const ok = await verifyPassword(password, account?.passwordHash ?? (await this.dummyHash));
    if (!account || !ok) return null;
    if (needsRehash(account.passwordHash, this.cost)) {
      const passwordHash = await hashPassword(password, this.cost);
      await this.replace({ ...account, passwordHash });
    }
    return this.get(account.accountId) ?? null;
  }

  /**
   * The account of an identity provider's user, made at the first sign-in (source 'oidc', no
   * password) and brought up to date at every later one and every recheck: its groups, and its
   * role when the provider decides roles (`role` given). A local account of that name is never
   * taken over. The last-administrator rule does not hold the provider back: it decides.
   */
  async upsertOidc(
    username: string,
    groups: string[],
    role: AccountRole | undefined,
  ): Promise<StoredAccount> {
    const name = username.trim().toLowerCase();
    const held = this.byUsername(name);
    if (held && held.source !== 'oidc') {
      throw new ProblemError(
        'oidc_account_conflict',
        `a local account named "${name}" exists; the identity provider's user of that name cannot sign in as it`,
      );
    }
    if (held) {
      const nextRole = role ?? held.role;
      const same =
        nextRole === held.role &&
        held.groups.length === groups.length &&
        held.groups.every((g, i) => g === groups[i]);
      if (same) return held;
      const next: StoredAccount = {
        ...held,
        role: nextRole,
        groups,
        workspaces: nextRole === 'admin' ? [] : held.workspaces,
      };
      await this.replace(next);
      return next;
    }
    const at = this.now();
    const account: StoredAccount = {
      accountId: newId(),
      username: name,
      role: role ?? 'member',
      workspaces: [],
      passwordHash: '',
      createdAt: at,
      passwordChangedAt: at,
      source: 'oidc',
      groups,
    };
    try {
      await this.db.transaction('create oidc account', (tx) => saveAccount(tx, account));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Another replica made it at the same moment: take that one.
      await this.reloadAll();
      return this.upsertOidc(name, groups, role);
    }
    this.accounts = [...this.accounts.filter((a) => a.username !== name), account];
    await this.sync.changed('account', account.accountId);
    return account;
  }

  async update(accountId: string, patch: AccountPatch): Promise<StoredAccount> {
    const account = this.require(accountId);
    const role = patch.role ?? account.role;
    if (account.role === 'admin' && role !== 'admin') this.refuseLastAdmin(account);
    const next: StoredAccount = {
      ...account,
      role,
      workspaces: role === 'admin' ? [] : [...new Set(patch.workspaces ?? account.workspaces)],
    };
    if (patch.password !== undefined && account.source === 'oidc') {
      throw new ProblemError(
        'conflict',
        `"${account.username}" signs in with the identity provider and has no password to set`,
      );
    }
    if (patch.password !== undefined) {
      next.passwordHash = await hashPassword(patch.password, this.cost);
      next.passwordChangedAt = this.now();
    }
    await this.replace(next);
    return next;
  }

  async remove(accountId: string): Promise<StoredAccount> {
    const account = this.require(accountId);
    if (account.role === 'admin') this.refuseLastAdmin(account);
    // Its sessions, refresh tokens and API keys go with it (ON DELETE CASCADE).
    await this.db.transaction('remove account', (tx) => deleteAccount(tx, accountId));
    this.accounts = this.accounts.filter((a) => a.accountId !== accountId);
    await this.sync.changed('account', accountId);
    return account;
  }

  /** The account, read from the table when memory lacks it (another replica just made it). */
  async lookup(accountId: string): Promise<StoredAccount | undefined> {
    const held = this.get(accountId);
    if (held || !this.sync.shared) return held;
    await this.changed(accountId);
    return this.get(accountId);
  }

  /** Re-reads one account (another replica changed, made or removed it). */
  async changed(accountId: string): Promise<void> {
    const { stamp, value: fresh } = await this.sync.read(() => loadAccount(this.db, accountId));
    if (!this.sync.accepts('account', accountId, stamp)) return;
    const rest = this.accounts.filter((a) => a.accountId !== accountId);
    this.accounts = fresh ? [...rest, fresh] : rest;
  }

  /** Re-reads every account: the bounded fallback for a notification that never came. */
  async reloadAll(): Promise<void> {
    const { stamp, value: fresh } = await this.sync.read(() => loadAccounts(this.db));
    // An account re-read or changed here since this read was issued keeps what memory has.
    const held = new Map(this.accounts.map((a) => [a.accountId, a]));
    const ids = new Set(fresh.map((a) => a.accountId));
    const next = fresh.flatMap((a) => {
      if (this.sync.accepts('account', a.accountId, stamp)) return [a];
      const mine = held.get(a.accountId);
      return mine ? [mine] : [];
    });
    for (const a of this.accounts)
      if (!ids.has(a.accountId) && !this.sync.accepts('account', a.accountId, stamp)) next.push(a);
    this.accounts = next;
  }

  require(accountId: string): StoredAccount {
    const account = this.get(accountId);
    if (!account) throw new ProblemError('account_not_found', `account "${accountId}" not found`);
    return account;
  }

  private refuseLastAdmin(account: StoredAccount) {
    if (this.accounts.some((a) => a.role === 'admin' && a.accountId !== account.accountId)) return;
    throw new ProblemError('last_admin', `"${account.username}" is the last administrator and must stay one`);
  }

  private async replace(account: StoredAccount) {
    await this.db.transaction('update account', (tx) => saveAccount(tx, account));
    this.accounts = this.accounts.map((a) => (a.accountId === account.accountId ? account : a));
    await this.sync.changed('account', account.accountId);
  }
}

export function workspacesOf(account: StoredAccount): 'all' | string[] {
  return account.role === 'admin' ? 'all' : account.workspaces;
}

export function publicAccount(account: StoredAccount): Account {
  return {
    accountId: account.accountId,
    username: account.username,
    role: account.role,
    workspaces: workspacesOf(account),
    createdAt: iso(account.createdAt),
    passwordChangedAt: iso(account.passwordChangedAt),
    source: account.source,
    groups: account.groups,
  };
}
