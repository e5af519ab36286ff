import type { ClientDescription } from '../../../src-shared/contract/auth-models';
import type { ClientInfo } from '../context';
import type { Logger } from '../logger';
import type { ActivityLog } from './activity';
import type { PendingWork } from './pending-work';
import type { StoredApiKey } from './state';

/**
 * How often the use of one API key from one client address is logged at most. A script polling
 * with a key every second would otherwise fill the activity log's cap within a day; once per ten
 * minutes per address still shows when a key was in use, and a new address (a key used from
 * somewhere else) is logged at its first request.
 */
export const API_KEY_USE_INTERVAL_MS = 10 * 60_000;
/** Key-address pairs remembered; beyond it the oldest is forgotten (and may be logged once more). */
const MAX_TRACKED = 10_000;

/** The parts of the auth core it writes through; named here, not picked from AuthCore, which builds it. */
interface Deps {
  activity: ActivityLog;
  pending: PendingWork;
  describe(client: Pick<ClientInfo, 'address' | 'userAgent'>): Promise<ClientDescription>;
  logger: Logger;
  now: () => number;
}

export class ApiKeyUseLog {
  private readonly last = new Map<string, number>();

  constructor(private readonly core: Deps) {}

  /** Called for every request an API key authenticated; the entry is written after the request. */
  used(key: StoredApiKey, client: Pick<ClientInfo, 'address' | 'userAgent'>): void {
    const at = this.core.now();
    const id = `${key.apiKeyId}\n${client.address ?? ''}`;
    const previous = this.last.get(id);
    if (previous !== undefined && at - previous < API_KEY_USE_INTERVAL_MS) return;
    // Re-inserted so that the map's order is least recently logged first.
    this.last.delete(id);
    this.last.set(id, at);
    if (this.last.size > MAX_TRACKED) this.last.delete(this.last.keys().next().value!);
    this.core.pending.later(
      async () => {
        const device = await this.core.describe(client);
        await this.core.activity.record({
          type: 'api_key_used',
          at,
          accountId: key.accountId,
          apiKeyId: key.apiKeyId,
          client: device,
          detail: key.name,
        });
      },
      (err) => this.core.logger.warn({ err }, 'could not record an API key use'),
    );
  }
}
