import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import type { AppDatabase } from '../storage/database';
import type { KeyValueStore } from '../storage/store';

/**
 * The service's own settings (today `appSettings`: kubeconfig paths and token lifetimes) in the
 * database's service_settings table (migration 3), shared by replicas; they were the conf file's,
 * copied in once. The desktop window's own preferences stay in electron-store (desktop-store.ts).
 *
 * Rules:
 * - A KeyValueStore, so app-settings.ts reads it as it read the conf file: `get` answers from
 *   memory (read whole at open), `set`/`delete` change memory and queue the write in order;
 *   `saved()` resolves once every queued write committed and rejects when one failed (memory then
 *   goes back to what the database holds). Callers that answer a request await it.
 * - One row per key, written whole: settings are one small value each, and the last write wins.
 * - After a write, a notify on `skiff_settings`; replicas re-read on it, on reconnect and every
 *   30 s at most.
 * - The keys in COPIED are copied from the conf file by the first start that finds the marker
 *   missing, in the marker's transaction (replicas starting together copy once).
 */

export const SETTINGS_CHANNEL = 'skiff_settings';
export const SETTINGS_MARKER = 'imported.settings';
/** What moves from the conf file into the database. */
export const COPIED = ['appSettings'] as const;
const REREAD_MS = 30_000;

const READ = 'SELECT key, value FROM service_settings WHERE key NOT LIKE $marker ORDER BY key';
const PUT = `INSERT INTO service_settings (key, value, updated_at) VALUES ($key, $value, $now)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;
const PUT_ONCE = `INSERT INTO service_settings (key, value, updated_at) VALUES ($key, $value, $now)
  ON CONFLICT (key) DO NOTHING`;
const DELETE = 'DELETE FROM service_settings WHERE key = $key';
/** Markers (imported.*) are bookkeeping, not settings. */
const MARKERS = 'imported.%';

type Row = { key: string; value: string };

function copies(conf: KeyValueStore | undefined): { key: string; value: string }[] {
  if (!conf) return [];
  return COPIED.flatMap((key) => {
    const value = conf.get(key);
    return value === undefined ? [] : [{ key, value: JSON.stringify(value) }];
  });
}

export class ServiceSettings implements KeyValueStore {
  private values: Map<string, unknown>;
  private pending: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private closed = false;

  private constructor(
    private readonly backend: StorageBackend,
    private readonly logger: Logger,
    rows: readonly Row[],
  ) {
    this.values = new Map(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }

  get path(): string {
    return `${this.backend.where} (service_settings)`;
  }

  static openSqlite(opts: {
    db: AppDatabase;
    backend: StorageBackend;
    conf?: KeyValueStore | undefined;
    logger: Logger;
  }): ServiceSettings {
    const { db } = opts;
    const now = Date.now();
    const copy = copies(opts.conf);
    db.write('settings: copy the conf file in', () => {
      if (db.run(PUT_ONCE, { key: SETTINGS_MARKER, value: 'true', now }) === 0) return;
      for (const c of copy) db.run(PUT_ONCE, { ...c, now });
    });
    return new ServiceSettings(opts.backend, opts.logger, db.all<Row>(READ, { marker: MARKERS }));
  }

  static async open(opts: {
    backend: StorageBackend;
    conf?: KeyValueStore | undefined;
    logger: Logger;
  }): Promise<ServiceSettings> {
    const { backend } = opts;
    const now = Date.now();
    const copy = copies(opts.conf);
    await backend.transaction('settings: copy the conf file in', async (tx) => {
      if ((await tx.run(PUT_ONCE, { key: SETTINGS_MARKER, value: 'true', now })) === 0) return;
      for (const c of copy) await tx.run(PUT_ONCE, { ...c, now });
    });
    return new ServiceSettings(backend, opts.logger, await backend.all<Row>(READ, { marker: MARKERS }));
  }

  get(key: string): unknown {
    return structuredClone(this.values.get(key));
  }

  set(key: string, value: unknown): void {
    this.values.set(key, structuredClone(value));
    this.write(key, () =>
      this.backend.run(PUT, { key, value: JSON.stringify(value), now: Date.now() }).then(() => undefined),
    );
  }

  delete(key: string): void {
    this.values.delete(key);
    this.write(key, () => this.backend.run(DELETE, { key }).then(() => undefined));
  }

  /** Resolves once every write asked so far committed; rejects if one failed. */
  saved(): Promise<void> {
    return this.pending;
  }

  private write(key: string, fn: () => Promise<void>): void {
    const next = this.pending
      .catch(() => {})
      .then(async () => {
        if (this.backend.isSealed) throw new Error('the service is closing: the setting was not saved');
        await fn();
        await this.backend.notify(SETTINGS_CHANNEL, key).catch(() => {});
      });
    this.pending = next.catch(async (err: unknown) => {
      await this.reread();
      throw err;
    });
    // Nobody may be waiting: a failure is logged as well as told to saved().
    this.pending.catch((err: unknown) =>
      this.logger.warn({ key, err: (err as Error).message }, 'a setting could not be saved'),
    );
  }

  /** Starts hearing other replicas' writes: a notification, a reconnect, or every REREAD_MS. */
  async start(rereadMs = REREAD_MS): Promise<void> {
    this.unlisten = await this.backend.listen(
      SETTINGS_CHANNEL,
      () => void this.reread(),
      () => void this.reread(),
    );
    this.timer = setInterval(() => void this.reread(), rereadMs);
    this.timer.unref();
  }

  /** Reads every setting again; never throws (a failure keeps the last read, logged). */
  async reread(): Promise<void> {
    if (this.closed) return;
    try {
      const rows = await this.backend.all<Row>(READ, { marker: MARKERS });
      this.values = new Map(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
    } catch (err) {
      this.logger.warn(
        { err: (err as Error).message },
        'settings could not be read again; keeping the last read',
      );
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.unlisten?.().catch(() => {});
    await this.pending.catch(() => {});
  }
}
