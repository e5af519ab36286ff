import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { parse, stringify } from 'yaml';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import { type KubeObject, type Simulator, type SnapshotObject, startSimulator } from '../../simulator/index';
import type { ClusterConnection } from '../clusters/cluster';
import { contextsFromYaml } from '../clusters/kubeconfig';
import type { ClusterRegistry } from '../clusters/registry';
import { slugify } from '../clusters/slug';
import type { EventHistory } from '../history/index';
import type { HistoryStore } from '../history/store';
import type { Logger } from '../logger';
import type { AppDatabase } from '../storage/database';
import { buildSnapshotHistory } from './open-history';
import { openSnapshotFile, type SnapshotFile } from './reader';

/**
 * Opening `.skiff` files as read-only clusters (issue 10 §2). Each snapshot is served by an
 * embedded simulator of its own, frozen (no ticker), whose store holds the captured objects and
 * whose logs and metrics are the captured ones; the service reaches it through a kubeconfig like
 * any cluster, so every read endpoint works unchanged and nothing goes over the network (it
 * listens on loopback, with a token of its own). The event history comes from the file too
 * (open-history.ts), never from the app's database.
 *
 * Rules: a snapshot lives for this run only (it is not remembered across restarts); opening the
 * same capture again (same context, takenAt and finishedAt) answers the cluster already open.
 */

export interface OpenedSnapshot {
  cluster: ClusterConnection;
  /** False when the same capture was open already and that cluster is answered. */
  created: boolean;
}

interface Open {
  key: string;
  file: SnapshotFile;
  sim: Simulator;
  history?: Promise<{ store: HistoryStore; db: AppDatabase }>;
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

  constructor(private readonly deps: { registry: ClusterRegistry; history: EventHistory; logger: Logger }) {}

  /**
   * Opens a snapshot file. `owned`: the file is an upload this service now owns (removed on
   * close, or at once when it cannot be opened or is a capture already open). `shownAs` names
   * the file in error messages. Throws `invalid_snapshot` or `snapshot_version_unsupported`.
   */
  async open(path: string, opts: { owned?: boolean; shownAs?: string } = {}): Promise<OpenedSnapshot> {
    const discard = async () => {
      if (opts.owned) await rm(path, { force: true });
    };
    let file: SnapshotFile;
    try {
      file = openSnapshotFile(path, opts.shownAs ?? path);
    } catch (err) {
      await discard();
      throw err;
    }
    const { facts } = file;
    const key = JSON.stringify([facts.context, facts.takenAt, facts.finishedAt]);
    const same = [...this.opened.entries()].find(([, o]) => o.key === key);
    if (same) {
      file.close();
      await discard();
      const cluster = this.deps.registry.allClusters().find((c) => c.clusterId === same[0]);
      if (cluster) return { cluster, created: false };
    }
    let sim: Simulator;
    try {
      sim = await startSimulator({
        host: '127.0.0.1',
        tickMs: false,
        token: randomBytes(24).toString('base64url'),
        // The reader sets kind and apiVersion on everything it gives, as the simulator needs.
        // Each kind, the events and the metrics are read when first asked for (the first page of
        // pods waits for none of the others), and objects are parsed only when read one by one.
        content: {
          objects: Object.fromEntries(
            RESOURCE_TYPES.map((t) => [RESOURCE_KINDS[t].kind, () => file.objects(t) as SnapshotObject[]]),
          ),
          events: () => file.liveEvents() as SnapshotObject[],
          log: (namespace, pod, container, previous) => file.log(namespace, pod, container, previous),
          podMetrics: () => file.podMetrics() as KubeObject[],
          nodeMetrics: () => file.nodeMetrics() as KubeObject[],
        },
      });
    } catch (err) {
      file.close();
      await discard();
      throw err;
    }
    const { registry, history, logger } = this.deps;
    const clusterId = snapshotClusterId(facts.context, facts.takenAt, (id) => registry.idTaken(id));
    const entry: Open = { key, file, sim, ...(opts.owned ? { owned: path } : {}) };
    this.opened.set(clusterId, entry);
    history.attachFrozen(clusterId, async () => {
      entry.history ??= buildSnapshotHistory(file, clusterId, logger);
      return (await entry.history).store;
    });
    const source = contextsFromYaml(sim.kubeconfigYaml(clusterId))[0]!;
    const cluster = registry.addSnapshot(clusterId, source, {
      context: facts.context,
      server: facts.server,
      takenAt: facts.takenAt,
      ...(facts.kubernetesVersion ? { kubernetesVersion: facts.kubernetesVersion } : {}),
    });
    // The pods list is what is shown first: it starts now rather than when the first page is asked for.
    cluster
      .resources(RESOURCE_KINDS.pod)
      .acquire(this.closing.signal)
      .catch(() => {});
    logger.info(
      { clusterId, context: facts.context, takenAt: facts.takenAt, file: opts.shownAs ?? path },
      'snapshot opened',
    );
    return { cluster, created: true };
  }

  /**
   * A kubeconfig naming every open snapshot (context = its clusterId), so kubectl reads a snapshot
   * as it reads a cluster. Valid while this service runs.
   */
  kubeconfigYaml(): string {
    const docs = [...this.opened.entries()].map(
      ([id, o]) => parse(o.sim.kubeconfigYaml(id)) as Record<string, unknown[]>,
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

  /** Stops every snapshot's simulator, closes its files and removes the uploaded ones. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    const all = [...this.opened.values()];
    this.opened.clear();
    await Promise.all(
      all.map(async (o) => {
        await o.sim.close();
        o.file.close();
        const h = await o.history?.catch(() => undefined);
        h?.db.close();
        if (o.owned) await rm(o.owned, { force: true });
      }),
    );
  }
}
