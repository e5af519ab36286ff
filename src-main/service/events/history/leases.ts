/**
 * The recorder leases of one replica: which clusters' event history this replica writes.
 *
 * Rules: each cluster has one recorder across every replica that shares the database, the holder
 * of the lease `recorder:<clusterId>` (StorageBackend.tryLease: a PostgreSQL advisory lock held
 * by a connection of its own, so a killed replica's lease ends with its connection; always granted
 * on SQLite, where one process is the whole service). A cluster this replica wants but does not
 * hold is asked for again every `retryMs`, so a holder that died is replaced within `retryMs` of
 * PostgreSQL seeing its connection gone. A lease is never taken for a cluster no longer wanted,
 * and after `releaseAll` none is taken again. Asking never throws: a failed ask is logged and
 * retried like a refused one.
 */
import type { Logger } from '../../logger';
import type { Lease, StorageBackend } from '../../storage/backend';

/** The lease's key: the same on every replica for the same cluster id. */
export const recorderLeaseKey = (clusterId: string) => `recorder:${clusterId}`;

export interface RecorderLeasesDeps {
  backend: StorageBackend;
  /** How often a wanted lease another replica holds is asked for again. */
  retryMs: number;
  logger: Logger;
  /** This replica now holds the cluster's lease (it may have to catch up on what it missed). */
  onTaken(clusterId: string): void;
  /** The lease ended without being released (its connection died): stop writing this cluster. */
  onLost(clusterId: string): void;
  /** The lease's key for a cluster, when not the event history's (history/changes has its own). */
  keyOf?: (clusterId: string) => string;
  /** What logs name the writer (default `event history`). */
  label?: string;
}

export class RecorderLeases {
  private readonly held = new Map<string, Lease>();
  private readonly asking = new Map<string, Promise<void>>();
  private readonly wanted = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly deps: RecorderLeasesDeps) {
    this.timer = setInterval(() => {
      for (const clusterId of this.wanted) void this.ask(clusterId);
    }, deps.retryMs);
    this.timer.unref();
  }

  holds(clusterId: string): boolean {
    return this.held.has(clusterId);
  }

  /** The clusters whose lease this replica holds, sorted (GET /v1/health's `recording`). */
  clusters(): string[] {
    return [...this.held.keys()].sort();
  }

  /** Wants the cluster's lease: asks now, and again every retryMs while another replica holds it. */
  want(clusterId: string): Promise<void> {
    this.wanted.add(clusterId);
    return this.ask(clusterId);
  }

  /** Resolves once no ask for the cluster is in flight: only then is `holds` its answer. */
  settled(clusterId: string): Promise<void> {
    return this.asking.get(clusterId) ?? Promise.resolve();
  }

  /** No longer wants the cluster's lease, and gives it back if held. */
  async unwant(clusterId: string): Promise<void> {
    this.wanted.delete(clusterId);
    await this.settled(clusterId);
    await this.giveBack(clusterId);
  }

  /**
   * Runs `fn` while holding the cluster's lease: this replica's own when held, else taken for
   * `fn` alone. Not at all (false) when another replica holds it, or this replica is waiting for
   * it, or after releaseAll.
   */
  async whileHeld(clusterId: string, fn: () => Promise<void>): Promise<boolean> {
    await this.settled(clusterId);
    if (this.held.has(clusterId)) {
      await fn();
      return true;
    }
    if (this.stopped || this.wanted.has(clusterId)) return false;
    const lease = await this.tryLease(clusterId);
    if (!lease) return false;
    try {
      await fn();
    } finally {
      await lease.release().catch(() => {});
    }
    return true;
  }

  /** Gives every lease back at once and takes none again (SIGTERM, close). */
  async releaseAll(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all([...this.asking.values()]);
    await Promise.all([...this.held.keys()].map((clusterId) => this.giveBack(clusterId)));
  }

  private async giveBack(clusterId: string): Promise<void> {
    const lease = this.held.get(clusterId);
    if (!lease) return;
    this.held.delete(clusterId);
    await lease
      .release()
      .catch((err: unknown) =>
        this.deps.logger.warn(
          { clusterId, err: String(err) },
          `${this.deps.label ?? 'event history'}: releasing a recorder lease failed`,
        ),
      );
  }

  private ask(clusterId: string): Promise<void> {
    if (this.stopped || this.held.has(clusterId)) return Promise.resolve();
    const inFlight = this.asking.get(clusterId);
    if (inFlight) return inFlight;
    const asked = this.take(clusterId).finally(() => this.asking.delete(clusterId));
    this.asking.set(clusterId, asked);
    return asked;
  }

  private async tryLease(clusterId: string): Promise<Lease | null> {
    try {
      return await this.deps.backend.tryLease((this.deps.keyOf ?? recorderLeaseKey)(clusterId));
    } catch (err) {
      this.deps.logger.warn(
        { clusterId, err: String(err) },
        `${this.deps.label ?? 'event history'}: asking for a recorder lease failed`,
      );
      return null;
    }
  }

  private async take(clusterId: string): Promise<void> {
    const lease = await this.tryLease(clusterId);
    if (!lease) return;
    if (this.stopped || !this.wanted.has(clusterId)) {
      await lease.release().catch(() => {});
      return;
    }
    this.held.set(clusterId, lease);
    // A lease given back never resolves `lost` (Lease's rule), so this one is still the one held.
    void lease.lost.then(() => {
      this.held.delete(clusterId);
      this.deps.logger.warn(
        { clusterId },
        `${this.deps.label ?? 'event history'}: the recorder lease was lost (its connection ended); another replica may record`,
      );
      this.deps.onLost(clusterId);
    });
    this.deps.onTaken(clusterId);
  }
}
