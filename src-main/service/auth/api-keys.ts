import type { ApiKeyRecord } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import type { AppDatabase } from '../storage/database';
import { deleteApiKeysOf, insertApiKey, loadApiKeys, saveApiKeyTimes } from './auth-tables';
import { API_KEY_PREFIX, hashSecret, newId, newSecret, sameSecret } from './secrets';
import { iso, type StoredApiKey } from './state';

export const DEFAULT_API_KEY_DAYS = 90;
const DAY_MS = 24 * 3_600_000;
const TOUCH_PERSIST_MS = 60_000;

/**
 * API keys for scripts: shown once, stored as SHA-256 hashes, always with an expiry. Held in
 * memory by hash (every keyed request looks one up) and written through to the api_keys table.
 */
export class ApiKeys {
  private keys: StoredApiKey[];
  private readonly byHash = new Map<string, StoredApiKey>();
  /** Keys whose lastUsedAt moved since it was last written. */
  private readonly used = new Set<StoredApiKey>();
  private lastPersist = 0;

  constructor(
    private readonly db: AppDatabase,
    private readonly now: () => number,
  ) {
    this.keys = loadApiKeys(db);
    for (const k of this.keys) this.byHash.set(k.hash, k);
  }

  create(
    accountId: string,
    input: { name: string; workspaces?: string[]; expiresInDays?: number },
  ): { record: StoredApiKey; key: string } {
    const key = newSecret(API_KEY_PREFIX);
    const at = this.now();
    const record: StoredApiKey = {
      apiKeyId: newId(),
      accountId,
      name: input.name,
      hash: hashSecret(key),
      hint: `${key.slice(0, API_KEY_PREFIX.length + 4)}…`,
      workspaces: input.workspaces ? [...new Set(input.workspaces)] : null,
      createdAt: at,
      expiresAt: at + (input.expiresInDays ?? DEFAULT_API_KEY_DAYS) * DAY_MS,
      lastUsedAt: null,
      revokedAt: null,
    };
    this.db.write('create API key', () => insertApiKey(this.db, record));
    this.keys = [...this.keys, record];
    this.byHash.set(record.hash, record);
    return { record, key };
  }

  /** Newest first, revoked and expired included (the status says which). */
  list(accountId: string): StoredApiKey[] {
    return this.keys.filter((k) => k.accountId === accountId).sort((a, b) => b.createdAt - a.createdAt);
  }

  revoke(accountId: string, apiKeyId: string): StoredApiKey {
    const k = this.keys.find((x) => x.apiKeyId === apiKeyId && x.accountId === accountId);
    if (!k) throw new ProblemError('api_key_not_found', `API key "${apiKeyId}" not found`);
    if (k.revokedAt === null) {
      const revokedAt = this.now();
      this.db.write('revoke API key', () => saveApiKeyTimes(this.db, { ...k, revokedAt }));
      k.revokedAt = revokedAt;
    }
    return k;
  }

  /** The key's record when it is valid now; undefined for unknown, revoked or expired keys. */
  authenticate(key: string): StoredApiKey | undefined {
    const hash = hashSecret(key);
    const k = this.byHash.get(hash);
    if (!k || !sameSecret(k.hash, hash) || this.status(k) !== 'active') return undefined;
    k.lastUsedAt = this.now();
    this.used.add(k);
    if (this.now() - this.lastPersist >= TOUCH_PERSIST_MS) this.flush();
    return k;
  }

  forget(accountId: string): void {
    this.db.write('forget API keys', () => deleteApiKeysOf(this.db, accountId));
    for (const k of this.keys) if (k.accountId === accountId) this.byHash.delete(k.hash);
    this.keys = this.keys.filter((k) => k.accountId !== accountId);
  }

  /** Writes lastUsedAt of every key used since the last flush, in one transaction. */
  flush(): void {
    this.lastPersist = this.now();
    if (this.used.size === 0) return;
    const used = [...this.used];
    this.used.clear();
    this.db.write('API keys last used', () => {
      for (const k of used) saveApiKeyTimes(this.db, k);
    });
  }

  status(k: StoredApiKey): ApiKeyRecord['status'] {
    if (k.revokedAt !== null) return 'revoked';
    return this.now() >= k.expiresAt ? 'expired' : 'active';
  }

  toRecord(k: StoredApiKey): ApiKeyRecord {
    return {
      apiKeyId: k.apiKeyId,
      name: k.name,
      hint: k.hint,
      workspaces: k.workspaces,
      status: this.status(k),
      createdAt: iso(k.createdAt),
      expiresAt: iso(k.expiresAt),
      lastUsedAt: k.lastUsedAt === null ? null : iso(k.lastUsedAt),
      revokedAt: k.revokedAt === null ? null : iso(k.revokedAt),
    };
  }
}
