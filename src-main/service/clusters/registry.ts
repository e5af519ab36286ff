/**
 * The registry: every cluster Skiff knows this run (kubeconfig contexts, the demo, opened
 * snapshots), the workspaces that group them, and the monitoring flags they carry. Rules:
 * - A context keeps its clusterId across starts (saved in the data dir); a snapshot's lives one run
 *   and is never saved, and closing it forgets it everywhere.
 * - Given a WorkspaceStore (the database, shared by replicas), workspaces, ids and flags are kept
 *   there: a change is in memory at once and written in order behind it; `saved()` resolves once
 *   what was asked so far is committed (handlers await it before they answer) and rejects when a
 *   write failed, memory then going back to what the database holds. Another replica's change
 *   arrives through the store's re-read. Without one (unit tests), the key-value store, as before.
 * - A principal sees only the workspaces and clusters it may; an unknown or hidden one is a 404.
 *   Of a workspace's member groups, an administrator's session sees every one; anyone else (API
 *   keys included: they manage nothing) only those among its own groups, which tell it why it is
 *   a member without naming other teams' groups.
 * - `--authorize rbac` (an authorizer given): an opened snapshot has no apiserver to ask about its
 *   contents, so it is seen (listed, read, closed) only by the accounts that opened it; one opened
 *   at start, by no account, only by Skiff's administrators. Decided here, in clustersOf, so no
 *   operation can forget it.
 * - Creating the registry asks no cluster anything: a connection talks only when a request reads it.
 * - A cluster as the API shows it (describeCluster) is built here, from the connection's probe and
 *   staleness and the registry's own flags, so every route that answers a Cluster answers the same.
 */
import type { Cluster, MonitoringFlags, Workspace } from '../../../src-shared/contract/models';
import { OPEN_ACCESS, type ReadAccess } from '../auth/rbac/access';
import type { Principal } from '../context';
import { ProblemError } from '../errors';
import type { ContextSource } from '../kube/kubeconfig';
import type { Logger } from '../logger';
import type { KeyValueStore } from '../storage/store';
import {
  DEFAULT_WORKSPACE_ID,
  loadWorkspaceConfig,
  monitoringOf,
  saveWorkspaceConfig,
  type WorkspaceConfig,
} from '../workspaces/config';
import type { WorkspaceStore } from '../workspaces/store';
import {
  ClusterConnection,
  type ClusterOptions,
  type EventRecording,
  type ResourceRecording,
  type WatchOptions,
} from './cluster';
import { kindOfDiscovered } from './kind-info';
import { assignClusterIds } from './slug';
import type { FrozenCluster } from './source-frozen';

export const DEMO_CLUSTER_ID = 'demo';

export interface RegistryOptions {
  contexts: readonly ContextSource[];
  /** The embedded demo cluster; always gets clusterId `demo`. */
  demo?: ContextSource;
  store: KeyValueStore;
  /** Where workspaces, ids and flags live when the service has a database (workspaces/store.ts). */
  workspaces?: WorkspaceStore;
  logger: Logger;
  timeoutMs: number;
  cacheIdleMs?: number;
  watch?: WatchOptions;
  now?: () => number;
  /** The event history's hooks: its cache observers, and what it hears of monitoring changes. */
  eventRecording?: EventRecording & { monitoringChanged(clusterId: string): void };
  /** The recorders of object changes and kept logs (history/hooks.ts). */
  resourceRecording?: ResourceRecording;
  /** `--authorize rbac` (auth/rbac): what each principal may read of a live cluster; absent: everything. */
  authorizer?: (cluster: ClusterConnection, principal: Principal) => ReadAccess;
}

/** Workspaces and the clusters in them, resolved from kubeconfig contexts and the data dir. */
export class ClusterRegistry {
  private config: WorkspaceConfig;
  private readonly clusters = new Map<string, ClusterConnection>();
  private readonly connOpts: ClusterOptions;
  private readonly sweeper: NodeJS.Timeout;
  private pending: Promise<void> = Promise.resolve();
  private readonly stopHearing: () => void;
  /** The accounts that opened each snapshot open through the API (`--authorize rbac` shows it to them only). */
  private readonly openers = new Map<string, Set<string>>();

  constructor(private readonly opts: RegistryOptions) {
    const { workspaces } = opts;
    this.config = workspaces ? workspaces.config : loadWorkspaceConfig(opts.store);
    this.stopHearing = workspaces ? workspaces.onChange((next) => this.heard(next)) : () => {};
    const ids = assignClusterIds(
      opts.contexts.map((c) => c.context),
      this.config.clusterIds,
      opts.demo ? [DEMO_CLUSTER_ID] : [],
    );
    const connOpts: ClusterOptions = {
      timeoutMs: opts.timeoutMs,
      logger: opts.logger,
      ...(opts.watch ? { watch: opts.watch } : {}),
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.eventRecording ? { eventRecording: opts.eventRecording } : {}),
      ...(opts.resourceRecording ? { resourceRecording: opts.resourceRecording } : {}),
    };
    this.connOpts = connOpts;
    for (const source of opts.contexts) {
      const id = ids[source.context]!;
      this.clusters.set(id, new ClusterConnection(id, source, connOpts));
    }
    if (opts.demo)
      this.clusters.set(DEMO_CLUSTER_ID, new ClusterConnection(DEMO_CLUSTER_ID, opts.demo, connOpts));
    const known = { ...this.config.clusterIds, ...ids };
    if (JSON.stringify(known) !== JSON.stringify(this.config.clusterIds)) {
      this.save({ ...this.config, clusterIds: known });
      // Nobody waits for these: a failure is logged, and the ids are assigned again next start.
      this.pending.catch((err: unknown) =>
        opts.logger.warn({ err: (err as Error).message }, 'cluster ids could not be saved'),
      );
    }
    const idleMs = opts.cacheIdleMs ?? 10 * 60_000;
    this.sweeper = setInterval(
      () => {
        for (const c of this.clusters.values()) void c.sweep(idleMs);
      },
      Math.min(idleMs, 60_000),
    );
    this.sweeper.unref();
  }

  workspaces(principal: Principal): Workspace[] {
    const own = new Set(principal.identity?.groups);
    const shown = (g: string) => principal.admin === true || own.has(g);
    return this.config.workspaces
      .filter((w) => principal.workspaces === 'all' || principal.workspaces.includes(w.workspaceId))
      .map((w) => ({ workspaceId: w.workspaceId, name: w.name, groups: (w.groups ?? []).filter(shown) }));
  }

  /** Non-members get the same 404 as a workspace that does not exist, so existence does not leak. */
  workspace(workspaceId: string, principal: Principal) {
    const ws = this.config.workspaces.find((w) => w.workspaceId === workspaceId);
    const member = principal.workspaces === 'all' || principal.workspaces.includes(workspaceId);
    if (!ws || !member) throw new ProblemError('workspace_not_found', `workspace "${workspaceId}" not found`);
    return ws;
  }

  clustersOf(workspaceId: string, principal: Principal): ClusterConnection[] {
    const ws = this.workspace(workspaceId, principal);
    const all = [...this.clusters.values()].filter((c) => this.mayView(c, principal));
    if (ws.clusterIds === undefined || ws.workspaceId === DEFAULT_WORKSPACE_ID) return all;
    return all.filter((c) => ws.clusterIds?.includes(c.clusterId));
  }

  /** `--authorize rbac`: a snapshot only to its openers (or, opened at start, administrators). */
  private mayView(cluster: ClusterConnection, principal: Principal): boolean {
    if (!this.opts.authorizer || !cluster.snapshot) return true;
    const openers = this.openers.get(cluster.clusterId);
    return openers ? openers.has(principal.accountId) : principal.admin === true;
  }

  /**
   * Records that this account opened the snapshot (again: the same capture sent by another account
   * is shown to both). Nothing changes without `--authorize rbac`.
   */
  openedBy(clusterId: string, accountId: string): void {
    if (!this.clusters.get(clusterId)?.snapshot) return;
    const openers = this.openers.get(clusterId) ?? new Set<string>();
    openers.add(accountId);
    this.openers.set(clusterId, openers);
  }

  /** What this principal may read of this cluster: the one place reads are authorized (auth/rbac/access.ts). */
  access(cluster: ClusterConnection, principal: Principal): ReadAccess {
    return this.opts.authorizer?.(cluster, principal) ?? OPEN_ACCESS;
  }

  cluster(workspaceId: string, clusterId: string, principal: Principal): ClusterConnection {
    const found = this.clustersOf(workspaceId, principal).find((c) => c.clusterId === clusterId);
    if (!found) {
      throw new ProblemError(
        'cluster_not_found',
        `cluster "${clusterId}" not found in workspace "${workspaceId}"`,
      );
    }
    return found;
  }

  createWorkspace(input: { workspaceId: string; name: string; clusterIds: string[]; groups?: string[] }) {
    if (this.config.workspaces.some((w) => w.workspaceId === input.workspaceId)) {
      throw new ProblemError('conflict', `workspace "${input.workspaceId}" already exists`);
    }
    this.checkClusters(input.clusterIds);
    const ws = {
      workspaceId: input.workspaceId,
      name: input.name,
      clusterIds: [...new Set(input.clusterIds)],
      // Kept only when there are some, as the table reads them back (workspaces/store.ts).
      ...(input.groups?.length ? { groups: [...new Set(input.groups)] } : {}),
    };
    this.save({ ...this.config, workspaces: [...this.config.workspaces, ws] });
    return { ...ws, groups: ws.groups ?? [] };
  }

  updateWorkspace(
    workspaceId: string,
    patch: { name?: string; clusterIds?: string[]; groups?: string[] },
    principal: Principal,
  ) {
    const ws = this.workspace(workspaceId, principal);
    if (patch.clusterIds !== undefined && ws.workspaceId === DEFAULT_WORKSPACE_ID) {
      throw new ProblemError('conflict', 'the default workspace always holds every cluster');
    }
    if (patch.clusterIds) this.checkClusters(patch.clusterIds);
    const { groups: heldGroups, ...rest } = ws;
    const groups = patch.groups === undefined ? heldGroups : [...new Set(patch.groups)];
    const next = {
      ...rest,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.clusterIds !== undefined ? { clusterIds: [...new Set(patch.clusterIds)] } : {}),
      ...(groups?.length ? { groups } : {}),
    };
    this.save({
      ...this.config,
      workspaces: this.config.workspaces.map((w) => (w.workspaceId === workspaceId ? next : w)),
    });
    return {
      workspaceId: next.workspaceId,
      name: next.name,
      clusterIds: next.clusterIds ?? [...this.clusters.keys()],
      groups: next.groups ?? [],
    };
  }

  deleteWorkspace(workspaceId: string, principal: Principal) {
    const ws = this.workspace(workspaceId, principal);
    if (ws.workspaceId === DEFAULT_WORKSPACE_ID)
      throw new ProblemError('conflict', 'the default workspace cannot be removed');
    this.save({
      ...this.config,
      workspaces: this.config.workspaces.filter((w) => w.workspaceId !== workspaceId),
    });
    // Only administrators remove workspaces: the groups it had, whole.
    return { workspaceId: ws.workspaceId, name: ws.name, groups: ws.groups ?? [] };
  }

  private checkClusters(ids: readonly string[]) {
    const unknown = ids.filter((id) => !this.clusters.has(id));
    if (unknown.length > 0)
      throw new ProblemError('invalid_body', `unknown clusterIds: ${unknown.join(', ')}`, { unknown });
  }

  private save(config: WorkspaceConfig) {
    this.config = config;
    const { workspaces } = this.opts;
    if (!workspaces) {
      saveWorkspaceConfig(this.opts.store, config);
      return;
    }
    const write = this.pending
      .catch(() => {})
      .then(async () => {
        if (!(await workspaces.save(config)))
          throw new Error('the service is closing: the change was not saved');
      });
    this.pending = write.catch((err: unknown) => {
      // Memory goes back to what the database holds.
      this.heard(workspaces.config);
      throw err;
    });
  }

  /** Resolves once every change asked so far is committed; rejects if one failed. */
  saved(): Promise<void> {
    return this.pending;
  }

  /** Another replica's change (or our own, read back): flags that changed are told to the recorder. */
  private heard(next: WorkspaceConfig) {
    const before = this.config;
    this.config = next;
    const ids = new Set([...Object.keys(before.clusters), ...Object.keys(next.clusters)]);
    for (const id of ids) {
      const a = monitoringOf(before, id);
      const b = monitoringOf(next, id);
      if (
        a.resourceEventsEnabled !== b.resourceEventsEnabled ||
        a.systemEventsEnabled !== b.systemEventsEnabled
      )
        this.opts.eventRecording?.monitoringChanged(id);
    }
  }

  monitoring(clusterId: string): MonitoringFlags {
    return monitoringOf(this.config, clusterId);
  }

  setMonitoring(clusterId: string, patch: Partial<MonitoringFlags>): MonitoringFlags {
    const next = { ...this.monitoring(clusterId), ...patch };
    this.save({
      ...this.config,
      clusters: { ...this.config.clusters, [clusterId]: { clusterAgent: { monitoring: next } } },
    });
    this.opts.eventRecording?.monitoringChanged(clusterId);
    return next;
  }

  /** True when the id names a cluster now or one assigned to a context before. */
  idTaken(clusterId: string): boolean {
    return this.clusters.has(clusterId) || Object.values(this.config.clusterIds).includes(clusterId);
  }

  /**
   * Adds a snapshot as a cluster that reads its file (`frozen`, snapshots/snapshot-cluster.ts):
   * the connection itself knows it is a snapshot, read-only and frozen at its takenAt. It lives as
   * long as this run and is not saved: the default workspace shows it, as it shows every cluster.
   */
  addSnapshot(clusterId: string, frozen: FrozenCluster, openedBy?: string): ClusterConnection {
    const { context, server } = frozen.facts;
    // Never used to reach anything (a frozen cluster's client is closed from the start): it names
    // the capture's context and server, as the cluster record shows them.
    const source: ContextSource = {
      context,
      server,
      config: {
        context: { name: context, cluster: context },
        cluster: { name: context, server, skipTLSVerify: false },
        user: null,
      },
    };
    const cluster = new ClusterConnection(clusterId, source, {
      ...this.connOpts,
      // A page of a snapshot is read from a local file: bigger pages, ten times fewer of them.
      listChunk: 1_000,
      kinds: frozen.kindRows.map((k) => kindOfDiscovered({ ...k, resource: k.plural })),
      frozen,
    });
    // Its opener first, so under `--authorize rbac` no one else sees it for a moment.
    if (openedBy !== undefined) this.openers.set(clusterId, new Set([openedBy]));
    this.clusters.set(clusterId, cluster);
    return cluster;
  }

  /**
   * Removes an opened snapshot (snapshots/open.ts closeOne) and stops its caches. A workspace that
   * listed it forgets it too, so nothing saved still names it: the same file opened again later
   * gets the same id and must not reappear in a workspace. (Its monitoring flags never change:
   * a snapshot is read-only, so there are none saved to forget.)
   */
  async removeSnapshot(clusterId: string): Promise<void> {
    const cluster = this.clusters.get(clusterId);
    if (!cluster?.snapshot) return;
    this.clusters.delete(clusterId);
    this.openers.delete(clusterId);
    if (this.config.workspaces.some((w) => w.clusterIds?.includes(clusterId))) {
      this.save({
        ...this.config,
        workspaces: this.config.workspaces.map((w) =>
          w.clusterIds ? { ...w, clusterIds: w.clusterIds.filter((id) => id !== clusterId) } : w,
        ),
      });
    }
    await cluster.close();
  }

  /**
   * One cluster as the API shows it in `workspaceId`. A snapshot is never probed and never stale:
   * it says what was captured and when. A live cluster's status is its probe's, except that a
   * broken watch is as telling as a failed probe (and says since when the data is old).
   */
  async describeCluster(c: ClusterConnection, workspaceId: string): Promise<Cluster> {
    const monitoring = { clusterAgent: { monitoring: this.monitoring(c.clusterId) } };
    const { snapshot } = c;
    if (snapshot) {
      return {
        clusterId: c.clusterId,
        workspaceId,
        name: `${snapshot.context} (snapshot)`,
        context: snapshot.context,
        server: snapshot.server,
        status: 'snapshot',
        ...(snapshot.kubernetesVersion ? { kubernetesVersion: snapshot.kubernetesVersion } : {}),
        takenAt: snapshot.takenAt,
        ...(snapshot.missing ? { missing: snapshot.missing } : {}),
        monitoring,
      };
    }
    const probed = await c.status();
    const stale = c.staleness();
    const status =
      stale === undefined || probed.status !== 'connected'
        ? probed.status
        : stale.cause?.code === 'cluster_unauthorized'
          ? 'unauthorized'
          : 'unreachable';
    return {
      clusterId: c.clusterId,
      workspaceId,
      name: c.context,
      context: c.context,
      server: c.source.server,
      status,
      ...(probed.version ? { kubernetesVersion: probed.version } : {}),
      ...(stale ? { lastSyncedAt: stale.since } : {}),
      monitoring,
    };
  }

  /** The cluster with this id, whichever workspaces hold it (for service-wide work such as the history). */
  byId(clusterId: string): ClusterConnection | undefined {
    return this.clusters.get(clusterId);
  }

  /** Every cluster, whichever workspaces hold it (for service-wide work such as recording). */
  allClusters(): ClusterConnection[] {
    return [...this.clusters.values()];
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.stopHearing();
    // What was asked before close is written before the database closes (a failure was said to its caller).
    await this.pending.catch(() => {});
    await Promise.all([...this.clusters.values()].map((c) => c.close()));
  }
}
