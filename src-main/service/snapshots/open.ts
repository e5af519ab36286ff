import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { parse, stringify } from 'yaml';
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import type { ClusterConnection } from '../clusters/cluster';
import type { ClusterRegistry } from '../clusters/registry';
import { slugify } from '../clusters/slug';
import { ProblemError } from '../errors';
import type { HistoryStore } from '../events/history/store';
import type { Logger } from '../logger';
import type { AppDatabase } from '../storage/database';
import { type CheckedSnapshot, checkSnapshot } from './inspect';
import { buildSnapshotHistory } from './open-history';
import { buildSnapshotRecorded, type SnapshotRecorded } from './open-recorded';
import { openSnapshotFile, type SnapshotFile } from './reader';
import { snapshotCluster } from './snapshot-cluster';
import { snapshotContent } from './snapshot-content';

/**
 * Opening `.skiff` files as read-only clusters (issue 10 §2, issue 23 §4). An opened snapshot is a
 * cluster connection that reads its file (snapshot-cluster.ts): each kind's watch cache pages
 * through the file's objects when it is first read, single objects, logs and metrics are read
 * from the file, and the event history too (open-history.ts), and what Skiff had recorded
 * (open-recorded.ts), never from the app's database.
 * Nothing serves HTTP and nothing is serialised in between. Only `--snapshot-kubeconfig` asks for
 * more: kubectl needs an apiserver, so kubeconfigYaml starts an embedded simulator per snapshot
 * (frozen, on loopback, with a token of its own) the first time it is called.
 *
 * Rules: the account that opens a file is recorded with its cluster (`openedBy`): under
 * `--authorize rbac` the registry shows it to its openers only. A snapshot lives for this run only (it is not remembered across restarts), or until it is
 * closed (closeOne), which forgets it everywhere this run would still show it. Every file is
 * checked first, in a process of its own (inspect.ts), so a hostile one costs the event loop
 * nothing; closing the service ends checks in progress. A capture is known by its context,
 * takenAt and finishedAt: the same capture again with the same content (SHA-256 of the file)
 * answers the cluster already open (or being opened); with other content it is `409 conflict`,
 * never silently the other file.
 */

export interface OpenedSnapshot {
  cluster: ClusterConnection;
  /** False when the same capture was open already and that cluster is answered. */
  created: boolean;
}

interface Open {
  key: string;
  sha256: string;
  file: SnapshotFile;
  /** Started for kubectl only, by kubeconfigYaml. */
  sim?: Promise<Simulator>;
  history?: Promise<{ store: HistoryStore; db: AppDatabase }>;
  /** What Skiff had recorded (version 3), built on first read. */
  recorded?: Promise<SnapshotRecorded | undefined>;
  /** An uploaded file this service owns and removes when done. */
  owned?: string;
}

/** `prod-eu` taken 2026-11-24T14:03:00Z → `prod-eu-snapshot-20261124t140300z` (63 characters at most). */
export function snapshotClusterId(context: string, takenAt: string, taken: (id: string) => boolean): string {
  const stamp = new Date(Date.parse(takenAt))
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')
    .toLowerCase();
  const base = `${slugify(context).slice(0, 30).replace(/-+$/, '')}-snapshot-${stamp}`;
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}-${n}`;
  return id;
}

export class SnapshotOpener {
  private readonly opened = new Map<string, Open>();
  private closed = false;
  /** Ends the first lists started at open when the service closes first. */
  private readonly closing = new AbortController();

  /** Captures being opened (checked, their simulator starting), by key. */
  private readonly opening = new Map<string, { sha256: string; done: Promise<ClusterConnection> }>();

  constructor(
    private readonly deps: {
      registry: ClusterRegistry;
      logger: Logger;
      /** The check's budget before the file's size counts (inspect.ts CHECK_BUDGET). */
      checkBudgetMs?: number;
    },
  ) {}

  /**
   * Checks a file as `open` does, without opening it (serve --snapshot, before anything starts).
   * Throws `invalid_snapshot` or `snapshot_version_unsupported`.
   */
  check(path: string, shownAs = path): Promise<CheckedSnapshot> {
    return checkSnapshot(path, {
      shownAs,
      signal: this.closing.signal,
      ...(this.deps.checkBudgetMs !== undefined ? { budgetMs: this.deps.checkBudgetMs } : {}),
    });
  }

  /**
   * Opens a snapshot file. `owned`: the file is an upload this service now owns (removed on
   * close, or at once when it cannot be opened or is a capture already open). `shownAs` names
   * the file in error messages; `checked`, what `check` said of it just before. Throws
   * `invalid_snapshot`, `snapshot_version_unsupported` or `conflict`.
   */
  async open(
    path: string,
    opts: { owned?: boolean; shownAs?: string; checked?: CheckedSnapshot; openedBy?: string } = {},
  ): Promise<OpenedSnapshot> {
    const shownAs = opts.shownAs ?? path;
    const discard = async () => {
      if (opts.owned) await rm(path, { force: true });
    };
    let checked: CheckedSnapshot;
    try {
      if (opts.checked) checked = opts.checked;
      else {
        this.deps.logger.info({ file: shownAs }, 'checking snapshot');
        checked = await this.check(path, shownAs);
      }
      if (this.closed) throw new Error('the service is closing');
    } catch (err) {
      await discard();
      throw err;
    }
    const { facts, sha256 } = checked;
    const key = JSON.stringify([facts.context, facts.takenAt, facts.finishedAt]);
    const same = this.sameCapture(key);
    if (same && same.sha256 !== sha256) {
      await discard();
      throw new ProblemError(
        'conflict',
        `${shownAs} is a file of the capture of ${facts.context} taken ${facts.takenAt}, which is open already${same.clusterId ? ` as ${same.clusterId}` : ''} from a file with other content`,
        same.clusterId ? { clusterId: same.clusterId } : {},
      );
    }
    const cluster = await same?.cluster();
    if (cluster) {
      await discard();
      // Sent by another account too: it holds the file, so it sees the cluster (registry.openedBy).
      if (opts.openedBy !== undefined) this.deps.registry.openedBy(cluster.clusterId, opts.openedBy);
      return { cluster, created: false };
    }
    let settle!: { resolve(c: ClusterConnection): void; reject(err: unknown): void };
    const done = new Promise<ClusterConnection>((resolve, reject) => {
      settle = { resolve, reject };
    });
    done.catch(() => {});
    this.opening.set(key, { sha256, done });
    try {
      const created = await this.start(path, shownAs, key, checked, opts.owned ?? false, opts.openedBy);
      this.opening.delete(key);
      settle.resolve(created);
      return { cluster: created, created: true };
    } catch (err) {
      // Gone before anyone waiting for it resumes, so none of them finds it again.
      this.opening.delete(key);
      settle.reject(err);
      await discard();
      throw err;
    }
  }

  /** The capture with this key, open or being opened: its digest and, once there, its cluster. */
  private sameCapture(key: string) {
    for (const [clusterId, o] of this.opened) {
      if (o.key !== key) continue;
      const cluster = this.deps.registry.allClusters().find((c) => c.clusterId === clusterId);
      return { sha256: o.sha256, clusterId, cluster: async () => cluster };
    }
    const pending = this.opening.get(key);
    return (
      pending && {
        sha256: pending.sha256,
        clusterId: undefined,
        cluster: () => pending.done.catch(() => undefined),
      }
    );
  }

  private async start(
    path: string,
    shownAs: string,
    key: string,
    checked: CheckedSnapshot,
    owned: boolean,
    openedBy: string | undefined,
  ): Promise<ClusterConnection> {
    const file = openSnapshotFile(path, checked, shownAs);
    const { facts } = checked;
    const { registry, logger } = this.deps;
    const clusterId = snapshotClusterId(facts.context, facts.takenAt, (id) => registry.idTaken(id));
    const entry: Open = { key, sha256: checked.sha256, file, ...(owned ? { owned: path } : {}) };
    let frozen: ReturnType<typeof snapshotCluster>;
    try {
      if (this.closed) throw new Error('the service is closing');
      frozen = snapshotCluster({
        file,
        missing: checked.missing,
        logger,
        history: async () => {
          entry.history ??= buildSnapshotHistory(file, clusterId, logger);
          return (await entry.history).store;
        },
        recorded: async () => {
          entry.recorded ??= buildSnapshotRecorded(file, clusterId, logger);
          return (await entry.recorded)?.tables;
        },
      });
    } catch (err) {
      file.close();
      throw err;
    }
    this.opened.set(clusterId, entry);
    const cluster = registry.addSnapshot(clusterId, frozen, openedBy);
    // The pods list is what is shown first: it starts now rather than when the first page is asked for.
    cluster
      .resources(RESOURCE_KINDS.pod)
      .acquire(this.closing.signal)
      .catch(() => {});
    logger.info(
      { clusterId, context: facts.context, takenAt: facts.takenAt, file: shownAs },
      'snapshot opened',
    );
    return cluster;
  }

  /** A frozen simulator serving the file's nine kinds, events, logs and metrics, for kubectl. */
  private simulatorOf(clusterId: string, file: SnapshotFile): Promise<Simulator> {
    return startSimulator({
      host: '127.0.0.1',
      tickMs: false,
      token: randomBytes(24).toString('base64url'),
      // kubectl sends no bearer token to an http:// server.
      tls: true,
      content: snapshotContent(file),
    }).then((sim) => {
      this.deps.logger.info({ clusterId, url: sim.url }, 'snapshot served to kubectl');
      return sim;
    });
  }

  /**
   * A kubeconfig naming every open snapshot (context = its clusterId), so kubectl reads a snapshot
   * as it reads a cluster: the first call starts each snapshot's simulator (`--snapshot-kubeconfig`
   * asks for it; nothing else does). Valid while this service runs.
   */
  async kubeconfigYaml(): Promise<string> {
    const docs = await Promise.all(
      [...this.opened.entries()].map(async ([id, o]) => {
        o.sim ??= this.simulatorOf(id, o.file);
        return parse((await o.sim).kubeconfigYaml(id)) as Record<string, unknown[]>;
      }),
    );
    const pick = (k: string) => docs.flatMap((d) => d[k] ?? []);
    return stringify(
      {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: pick('clusters'),
        users: pick('users'),
        contexts: pick('contexts'),
        'current-context': [...this.opened.keys()][0] ?? '',
      },
      { lineWidth: 0 },
    );
  }

  /**
   * Closes one opened snapshot (`DELETE …/clusters/{clusterId}`): it leaves the registry and every
   * workspace that listed it, its caches stop, and only then its file closes (nothing reads it
   * any more), kubectl's simulator stops and an uploaded file is removed. False when no snapshot
   * is open with this id: a cluster of a kubeconfig context, or one closed already.
   */
  async closeOne(clusterId: string): Promise<boolean> {
    const o = this.opened.get(clusterId);
    if (!o) return false;
    this.opened.delete(clusterId);
    await this.deps.registry.removeSnapshot(clusterId);
    await release(o);
    this.deps.logger.info({ clusterId }, 'snapshot closed');
    return true;
  }

  /** Stops the simulators kubectl was given, if any, closes every file and removes the uploaded ones. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    const all = [...this.opened.values()];
    this.opened.clear();
    await Promise.all(all.map(release));
  }
}

/** Everything an open snapshot holds, once its cluster's caches have stopped reading the file. */
async function release(o: Open): Promise<void> {
  const sim = await o.sim?.catch(() => undefined);
  await sim?.close();
  o.file.close();
  const h = await o.history?.catch(() => undefined);
  h?.db.close();
  const r = await o.recorded?.catch(() => undefined);
  r?.db.close();
  if (o.owned) await rm(o.owned, { force: true });
}
