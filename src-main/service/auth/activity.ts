import { z } from 'zod';
import type { ActivityEntry } from '../../../src-shared/contract/auth-models';
import type { KeyValueStore } from '../storage/store';
import { newId } from './secrets';
import { activitySchema, iso, loadState, type StoredActivity } from './state';

const KEY = 'activity';
export const MAX_ACTIVITY_ENTRIES = 2000;
export const ACTIVITY_RETENTION_MS = 90 * 24 * 3_600_000;

export type ActivityInput = Omit<
  StoredActivity,
  'activityId' | 'at' | 'sessionId' | 'apiKeyId' | 'client' | 'detail'
> &
  Partial<Pick<StoredActivity, 'at' | 'sessionId' | 'apiKeyId' | 'client' | 'detail'>>;

/**
 * The account activity log: what happened to which session, from which device. Kept in its own
 * file so that routine session writes do not rewrite it, and bounded in count and age.
 */
export class ActivityLog {
  private entries: StoredActivity[];

  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => number,
  ) {
    this.entries = loadState(store, KEY, z.array(activitySchema), []);
  }

  record(input: ActivityInput): void {
    const entry: StoredActivity = {
      activityId: newId(),
      at: input.at ?? this.now(),
      accountId: input.accountId,
      type: input.type,
      sessionId: input.sessionId ?? null,
      apiKeyId: input.apiKeyId ?? null,
      client: input.client ?? null,
      detail: input.detail ?? null,
    };
    const oldest = this.now() - ACTIVITY_RETENTION_MS;
    this.entries = [...this.entries.filter((e) => e.at > oldest), entry].slice(-MAX_ACTIVITY_ENTRIES);
    this.store.set(KEY, this.entries);
  }

  /** Newest first; an expiry is stamped with when it happened, which may be before it was noticed. */
  list(accountId: string, sessionId?: string): ActivityEntry[] {
    return [...this.entries]
      .reverse()
      .filter((e) => e.accountId === accountId && (sessionId === undefined || e.sessionId === sessionId))
      .sort((a, b) => b.at - a.at)
      .map(({ accountId: _account, at, ...rest }) => ({ ...rest, at: iso(at) }));
  }

  forget(accountId: string): void {
    this.entries = this.entries.filter((e) => e.accountId !== accountId);
    this.store.set(KEY, this.entries);
  }
}
