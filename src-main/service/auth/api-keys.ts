import { z } from 'zod';
import type { ApiKeyRecord } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import type { KeyValueStore } from '../storage/store';
import { API_KEY_PREFIX, hashSecret, newId, newSecret, sameSecret } from './secrets';
import { apiKeySchema, iso, loadState, type StoredApiKey } from './state';

const KEY = 'apiKeys';
export const DEFAULT_API_KEY_DAYS = 90;
const DAY_MS = 24 * 3_600_000;
const TOUCH_PERSIST_MS = 60_000;

/** API keys for scripts: shown once, stored as SHA-256 hashes, always with an expiry. */
export class ApiKeys {
  private keys: StoredApiKey[];
  private readonly byHash = new Map<string, StoredApiKey>();
  private lastPersist = 0;

  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => number,
  ) {
    this.keys = loadState(store, KEY, z.array(apiKeySchema), []);
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
    this.keys = [...this.keys, record];
    this.byHash.set(record.hash, record);
    this.save();
    return { record, key };
  }

  /** Newest first, revoked and expired included (the status says which). */
  list(accountId: string): StoredApiKey[] {
    return this.keys.filter((k) => k.accountId === accountId).sort((a, b) => b.createdAt - a.createdAt);
  }

  revoke(accountId: string, apiKeyId: string): StoredApiKey {
    const k = this.keys.find((x) => x.apiKeyId === apiKeyId && x.accountId === accountId);
    if (!k) throw new ProblemError('api_key_not_found', `API key "${apiKeyId}" not found`);
    k.revokedAt ??= this.now();
    this.save();
    return k;
  }

  /** The key's record when it is valid now; undefined for unknown, revoked or expired keys. */
  authenticate(key: string): StoredApiKey | undefined {
    const hash = hashSecret(key);
    const k = this.byHash.get(hash);
    if (!k || !sameSecret(k.hash, hash) || this.status(k) !== 'active') return undefined;
    k.lastUsedAt = this.now();
    if (this.now() - this.lastPersist >= TOUCH_PERSIST_MS) this.save();
    return k;
  }

  forget(accountId: string): void {
    for (const k of this.keys) if (k.accountId === accountId) this.byHash.delete(k.hash);
    this.keys = this.keys.filter((k) => k.accountId !== accountId);
    this.save();
  }

  flush(): void {
    this.save();
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

  private save() {
    this.store.set(KEY, this.keys);
    this.lastPersist = this.now();
  }
}
