import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { KubeObject } from '../../../src-shared/contract/models';
import type { SnapshotGap, SnapshotProgress } from '../../../src-shared/contract/snapshot-models';
import type { ScopeAttributes } from '../auth/read-scope';
import { cleanObject, type ResourceEntry } from '../cache/entries';
import { captureKinds, type WantedKind } from './capture-kinds';
import { captureLogs, reasonOf } from './capture-logs';
import { captureRecorded } from './capture-recorded';
import { type CaptureScope, forbiddenGap, inScope } from './capture-scope';
import { historyEventRow, liveEventRow } from './event-rows';
import { SNAPSHOT_FORMAT, SNAPSHOT_SCHEMA_VERSION } from './format';
import { type LogsMode, type LogTarget, logTargets, type PodLike } from './log-targets';
import type { CaptureSource } from './source';
import { SnapshotWriter } from './writer';

/**
 * Takes one cluster into one `.skiff` file (layout: format.ts). The kinds its discovery serves and
 * their objects as capture-kinds.ts says (the nine from the watch caches, the rest page by page);
 * events from one chunked list of the cluster, then the event history's rows the cluster no longer
 * has; metrics from metrics.k8s.io; what Skiff recorded of it up to the start (changes, usage,
 * kept logs: capture-recorded.ts); logs with a bounded number of requests open. A part that fails
 * is a gap and the capture goes on; only objects that cannot be listed at all (every kind failed)
 * fail it (CaptureFailed), and then no file is left behind. With `--authorize rbac` every part is
 * taken only where its taker may read it, the rest a gap with reason `forbidden: …`
 * (capture-scope.ts).
 */

export interface CaptureRequest {
  logLines: number;
  logs: LogsMode;
  /** Only these kinds' objects (events are always taken); every kind the cluster serves when absent. */
  kinds?: readonly WantedKind[];
  skiffVersion: string;
  /** Written here first (same folder as `finalPath`), renamed to `finalPath` once complete. */
  tempPath: string;
  finalPath: string;
  /** Updated as the capture goes, for whoever polls it. */
  progress: SnapshotProgress;
  /** Filled as parts fail, for whoever polls it. */
  gaps: SnapshotGap[];
  signal: AbortSignal;
  now?: () => number;
  /** When the capture counts as taken (the job's start); now when absent. */
  startedMs?: number;
  logConcurrency?: number;
}

export interface CaptureResult {
  sizeBytes: number;
  takenAt: string;
  finishedAt: string;
}

/** A capture that has nothing worth keeping. */
export class CaptureFailed extends Error {}

/** Pods read between two yields to the event loop. */
const BATCH = 2_000;
const EVENT_CHUNK = '500';
const HISTORY_BATCH = 5_000;

export async function captureSnapshot(source: CaptureSource, req: CaptureRequest): Promise<CaptureResult> {
  const now = req.now ?? Date.now;
  const started = req.startedMs ?? now();
  const writer = new SnapshotWriter(req.tempPath);
  try {
    const version = clusterVersion(source, req.signal);
    const pods = await captureObjects(source, writer, req);
    await captureEvents(source, writer, req);
    await captureMetrics(source, writer, req);
    await captureRecorded(source, writer, { untilMs: started, gaps: req.gaps, signal: req.signal });
    if (req.logs !== 'none' && req.logLines > 0) await captureAllLogs(source, writer, req, pods);
    const kubernetesVersion = await version;
    const finished = now();
    const takenAt = new Date(started).toISOString();
    const finishedAt = new Date(finished).toISOString();
    if (req.signal.aborted) throw req.signal.reason;
    const sizeBytes = writer.finish(
      {
        format: SNAPSHOT_FORMAT,
        schemaVersion: String(SNAPSHOT_SCHEMA_VERSION),
        skiffVersion: req.skiffVersion,
        context: source.context,
        server: source.server,
        ...(kubernetesVersion ? { kubernetesVersion } : {}),
        takenAt,
        finishedAt,
        durationMs: String(finished - started),
        logLines: String(req.logLines),
        logs: req.logs,
      },
      req.gaps,
      req.finalPath,
    );
    return { sizeBytes, takenAt, finishedAt };
  } catch (err) {
    writer.discard();
    throw err;
  }
}

async function clusterVersion(source: CaptureSource, signal: AbortSignal): Promise<string | undefined> {
  try {
    const v = await source.client.getJson<{ gitVersion?: string }>('/version', {
      signal,
      timeoutMs: source.timeoutMs,
    });
    return typeof v.gitVersion === 'string' ? v.gitVersion : undefined;
  } catch {
    // The version is a nicety of the file's meta; the objects say what the cluster held.
    return undefined;
  }
}

/** Writes the kinds and their objects; returns the pods (for their logs). */
async function captureObjects(
  source: CaptureSource,
  writer: SnapshotWriter,
  req: CaptureRequest,
): Promise<readonly ResourceEntry[] | undefined> {
  writer.begin();
  const { pods, attempted, failures } = await captureKinds(source, writer, req);
  if (attempted > 0 && failures.length === attempted)
    throw new CaptureFailed(`the cluster's objects could not be listed: ${failures[0]}`);
  writer.commit();
  return pods;
}

interface EventList {
  metadata?: { continue?: string };
  items?: KubeObject[];
}

/**
 * The cluster's events in full (the caches keep only the record fields), then the history's rows
 * the list did not have: expired = 1 when the history saw them go or the list no longer had them.
 * When the list fails, recorded rows the history still holds as present are written as present.
 */
async function captureEvents(source: CaptureSource, writer: SnapshotWriter, req: CaptureRequest) {
  writer.begin();
  let listed = true;
  let scope: CaptureScope;
  try {
    scope = await partScope(source, req, 'events', { verb: 'list', group: '', resource: 'events' });
  } catch (err) {
    if (req.signal.aborted) throw req.signal.reason;
    req.gaps.push({ part: 'events', reason: reasonOf(err) });
    writer.commit();
    return;
  }
  try {
    let token: string | undefined;
    do {
      const page: EventList = await source.client.getJson<EventList>('/api/v1/events', {
        query: { limit: EVENT_CHUNK, ...(token ? { continue: token } : {}) },
        signal: req.signal,
        timeoutMs: source.timeoutMs,
      });
      for (const item of page.items ?? []) {
        const row = liveEventRow(item);
        if (!inScope(scope, row.namespace)) continue;
        if (writer.event(row.uid, row.namespace, row.lastTimestamp, false, row.json)) req.progress.events++;
      }
      token = page.metadata?.continue || undefined;
      await yieldToEventLoop();
    } while (token);
  } catch (err) {
    if (req.signal.aborted) throw req.signal.reason;
    listed = false;
    req.gaps.push({ part: 'events', reason: reasonOf(err) });
  }
  try {
    let after: { lastMs: number; eventId: string } | undefined;
    for (;;) {
      const rows = await source.history(after, HISTORY_BATCH);
      if (!rows || rows.length === 0) break;
      for (const r of rows) {
        if (!inScope(scope, r.namespace)) continue;
        const row = historyEventRow(r);
        const expired = r.expiredAt !== undefined || listed;
        if (writer.event(row.uid, row.namespace, row.lastTimestamp, expired, row.json)) req.progress.events++;
      }
      if (rows.length < HISTORY_BATCH) break;
      const last = rows.at(-1)!;
      after = { lastMs: last.lastMs, eventId: last.eventId };
      await yieldToEventLoop();
    }
  } catch (err) {
    if (req.signal.aborted) throw req.signal.reason;
    req.gaps.push({ part: 'eventHistory', reason: reasonOf(err) });
  }
  writer.commit();
}

/**
 * `--authorize rbac`: where the taker may read a part; the rest of the cluster is one gap of it
 * (capture-scope.ts). Undefined: everywhere, or authorization off.
 */
async function partScope(
  source: CaptureSource,
  req: CaptureRequest,
  part: string,
  attrs: ScopeAttributes,
  namespaced = true,
): Promise<CaptureScope> {
  if (!source.scope) return undefined;
  const scope = await source.scope(attrs, req.signal);
  const gap = forbiddenGap(part, attrs, scope, namespaced);
  if (gap) req.gaps.push(gap);
  return scope;
}

const METRICS_API = '/apis/metrics.k8s.io/v1beta1';
const METRICS = [
  { kind: 'pod', path: `${METRICS_API}/pods`, type: 'PodMetrics', resource: 'pods', namespaced: true },
  { kind: 'node', path: `${METRICS_API}/nodes`, type: 'NodeMetrics', resource: 'nodes', namespaced: false },
] as const;

/** Where the taker may read each metrics kind (`--authorize rbac`); a refusal is the answer's reason. */
interface MetricsScope {
  scope: CaptureScope;
  /** Why some or all of it is not taken. */
  refused?: string;
  /** Nothing of it may be read: it is not asked for. */
  none: boolean;
}

async function metricsScopes(source: CaptureSource, req: CaptureRequest): Promise<MetricsScope[]> {
  return Promise.all(
    METRICS.map(async (m): Promise<MetricsScope> => {
      if (!source.scope) return { scope: undefined, none: false };
      const attrs = { verb: 'list', group: 'metrics.k8s.io', resource: m.resource } as const;
      try {
        const scope = await source.scope(attrs, req.signal);
        const gap = forbiddenGap(`${m.kind} metrics`, attrs, scope, m.namespaced);
        const none = gap !== undefined && (!m.namespaced || scope?.allowed.size === 0);
        return { scope, ...(gap ? { refused: `${gap.part}: ${gap.reason}` } : {}), none };
      } catch (err) {
        return { scope: undefined, refused: `${m.kind} metrics: ${reasonOf(err)}`, none: true };
      }
    }),
  );
}

/** PodMetrics and NodeMetrics; a metrics API that does not answer is one gap naming why. */
async function captureMetrics(source: CaptureSource, writer: SnapshotWriter, req: CaptureRequest) {
  const scopes = await metricsScopes(source, req);
  const answers = await Promise.allSettled(
    METRICS.map((m, i) =>
      scopes[i]!.none
        ? Promise.resolve({ items: [] })
        : source.client.getJson<{ items?: KubeObject[] }>(m.path, {
            signal: req.signal,
            timeoutMs: source.timeoutMs,
          }),
    ),
  );
  if (req.signal.aborted) throw req.signal.reason;
  const reasons = new Set<string>();
  for (const s of scopes) if (s.refused) reasons.add(s.refused);
  writer.begin();
  for (const [i, m] of METRICS.entries()) {
    const a = answers[i]!;
    if (a.status === 'rejected') {
      reasons.add(`${m.kind} metrics: ${reasonOf(a.reason)}`);
      continue;
    }
    const { scope } = scopes[i]!;
    for (const item of a.value.items ?? []) {
      if (!item?.metadata?.name) continue;
      if (!inScope(scope, item.metadata.namespace ?? '')) continue;
      const clean = cleanObject(item, 'metrics.k8s.io/v1beta1', m.type);
      writer.metric(m.kind, clean.metadata.namespace ?? '', clean.metadata.name, JSON.stringify(clean));
    }
  }
  writer.commit();
  if (reasons.size > 0) req.gaps.push({ part: 'metrics', reason: [...reasons].join('; ') });
}

async function captureAllLogs(
  source: CaptureSource,
  writer: SnapshotWriter,
  req: CaptureRequest,
  pods: readonly ResourceEntry[] | undefined,
) {
  if (!pods) {
    req.gaps.push({ part: 'logs', reason: 'no logs were taken: the pods could not be listed' });
    return;
  }
  let scope: CaptureScope;
  try {
    const attrs = { verb: 'get', group: '', resource: 'pods', subresource: 'log' } as const;
    scope = await partScope(source, req, 'logs', attrs);
  } catch (err) {
    if (req.signal.aborted) throw req.signal.reason;
    req.gaps.push({ part: 'logs', reason: `no logs were taken: ${reasonOf(err)}` });
    return;
  }
  const targets: LogTarget[][] = [];
  for (const [i, entry] of pods.entries()) {
    if (!inScope(scope, entry.namespace)) continue;
    const t = logTargets(JSON.parse(entry.json) as PodLike, req.logs);
    if (t.length > 0) targets.push(t);
    if ((i + 1) % BATCH === 0) await yieldToEventLoop();
  }
  req.progress.podLogsTotal = targets.length;
  writer.begin();
  try {
    await captureLogs(targets, {
      client: source.client,
      timeoutMs: source.timeoutMs,
      lines: req.logLines,
      ...(req.logConcurrency ? { concurrency: req.logConcurrency } : {}),
      signal: req.signal,
      write: (t, lines) => writer.log(t.namespace, t.pod, t.container, t.previous, lines),
      podDone: () => {
        req.progress.podLogsDone++;
      },
      gap: (g) => req.gaps.push(g),
    });
  } finally {
    writer.commit();
  }
}
