import type { ApiKeyRecord } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import type { StorageBackend } from '../storage/backend';
import {
  deleteApiKeysOf,
  insertApiKey,
  loadApiKey,
  loadApiKeys,
  saveApiKeyRevoked,
  saveApiKeyUse,
} from './auth-tables';
import type { ReplicaSync } from './replica-sync';
import { API_KEY_PREFIX, hashSecret, newId, newSecret, sameSecret } from './secrets';
import { iso, type StoredApiKey } from './state';

export const DEFAULT_API_KEY_DAYS = 90;
const DAY_MS = 24 * 3_600_000;
const TOUCH_PERSIST_MS = 60_000;

/**
 * API keys for scripts: shown once, stored as SHA-256 hashes, always with an expiry. Held in
 * memory by hash (every keyed request looks one up) and written through to the api_keys table
 * before memory takes a change, which is then announced to the other replicas (replica-sync.ts).
 * With replicas, a key memory lacks (made on another replica) is looked up in the table.
 */
export class ApiKeys {
  private keys: StoredApiKey[] = [];
  private readonly byHash = new Map<string, StoredApiKey>();
  /** Keys whose lastUsedAt moved since it was last written. */
  private readonly used = new Set<StoredApiKey>();
  private lastPersist = 0;
  private flushing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: StorageBackend,
    private readonly now: () => number,
    private readonly sync: ReplicaSync,
  ) {}

  static async load(db: StorageBackend, now: () => number, sync: ReplicaSync): Promise<ApiKeys> {
    const keys = new ApiKeys(db, now, sync);
    for (const k of await loadApiKeys(db)) keys.put(k);
    return keys;
  }

  async create(
    accountId: string,
    input: { name: string; workspaces?: string[]; expiresInDays?: number },
  ): Promise<{ record: StoredApiKey; key: string }> {
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
    await this.db.transaction('create API key', (tx) => insertApiKey(tx, record));
    this.put(record);
    await this.sync.changed('api_key', record.apiKeyId);
    return { record, key };
  }

  /** Newest first, revoked and expired included (the status says which). */
  list(accountId: string): StoredApiKey[] {
    return this.keys.filter((k) => k.accountId === accountId).sort((a, b) => b.createdAt - a.createdAt);
  }

  async revoke(accountId: string, apiKeyId: string): Promise<StoredApiKey> {
    const k = this.keys.find((x) => x.apiKeyId === apiKeyId && x.accountId === accountId);
    if (!k) throw new ProblemError('api_key_not_found', `API key "${apiKeyId}" not found`);
    if (k.revokedAt === null) {
      const revokedAt = this.now();
      await this.db.transaction('revoke API key', (tx) => saveApiKeyRevoked(tx, { ...k, revokedAt }));
      // Another replica may have revoked it first: its time stands.
      k.revokedAt ??= revokedAt;
      await this.sync.changed('api_key', k.apiKeyId);
    }
    return k;
  }

  /** The key's record when it is valid now; undefined for unknown, revoked or expired keys. */
  async authenticate(key: string): Promise<StoredApiKey | undefined> {
    const hash = hashSecret(key);
    let k = this.byHash.get(hash);
    if (!k && this.sync.shared) {
      const { stamp, value: fresh } = await this.sync.read(() => loadApiKey(this.db, { hash }));
      if (fresh)
        k = this.sync.accepts('api_key', fresh.apiKeyId, stamp) ? this.put(fresh) : this.byHash.get(hash);
    }
    if (!k || !sameSecret(k.hash, hash) || this.status(k) !== 'active') return undefined;
    k.lastUsedAt = this.now();
    this.used.add(k);
    if (this.now() - this.lastPersist >= TOUCH_PERSIST_MS) await this.flush();
    return k;
  }

  async forget(accountId: string): Promise<void> {
    await this.db.transaction('forget API keys', (tx) => deleteApiKeysOf(tx, accountId));
    for (const k of this.keys) if (k.accountId === accountId) this.remove(k);
  }

  /** Writes lastUsedAt of every key used since the last flush, in one transaction. */
  flush(): Promise<void> {
    this.lastPersist = this.now();
    if (this.used.size === 0) return this.flushing;
    const used = [...this.used];
    this.used.clear();
    const write = this.flushing.then(() =>
      this.db
        .transaction('API keys last used', async (tx) => {
          for (const k of used) await saveApiKeyUse(tx, k);
        })
        .then(() => undefined),
    );
    this.flushing = write.catch(() => {});
    return write;
  }

  /** Re-reads one key (another replica made, revoked or deleted it). */
  async changed(apiKeyId: string): Promise<void> {
    const { stamp, value: fresh } = await this.sync.read(() => loadApiKey(this.db, { id: apiKeyId }));
    if (!this.sync.accepts('api_key', apiKeyId, stamp)) return;
    const held = this.keys.find((k) => k.apiKeyId === apiKeyId);
    if (!fresh) {
      if (held) this.remove(held);
      return;
    }
    this.put(fresh);
  }

  /** Re-reads every key: the bounded fallback for a notification that never came. */
  async reloadAll(): Promise<void> {
    const { stamp, value: fresh } = await this.sync.read(() => loadApiKeys(this.db));
    const ids = new Set(fresh.map((k) => k.apiKeyId));
    for (const k of [...this.keys])
      if (!ids.has(k.apiKeyId) && this.sync.accepts('api_key', k.apiKeyId, stamp)) this.remove(k);
    // A key re-read or revoked here since this read was issued is newer than what it found.
    for (const k of fresh) if (this.sync.accepts('api_key', k.apiKeyId, stamp)) this.put(k);
  }

  /** Into memory, into the object already held for that key when there is one. */
  private put(fresh: StoredApiKey): StoredApiKey {
    const held = this.keys.find((k) => k.apiKeyId === fresh.apiKeyId);
    if (!held) {
      this.keys = [...this.keys, fresh];
      this.byHash.set(fresh.hash, fresh);
      return fresh;
    }
    // A use seen here and not yet written is newer than the row.
    const lastUsedAt =
      held.lastUsedAt === null || fresh.lastUsedAt === null
        ? (held.lastUsedAt ?? fresh.lastUsedAt)
        : Math.max(held.lastUsedAt, fresh.lastUsedAt);
    Object.assign(held, fresh, { lastUsedAt });
    return held;
  }

  private remove(k: StoredApiKey) {
    this.byHash.delete(k.hash);
    this.used.delete(k);
    this.keys = this.keys.filter((x) => x !== k);
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
