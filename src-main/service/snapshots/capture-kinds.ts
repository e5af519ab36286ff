import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { KubeObject } from '../../../src-shared/contract/models';
import type { SnapshotGap, SnapshotProgress } from '../../../src-shared/contract/snapshot-models';
import { RESOURCE_KINDS, type ResourceKindInfo } from '../../../src-shared/kube/kinds';
import { cleanObject, type ResourceEntry } from '../cache/entries';
import { snapshotKindRows } from '../clusters/discovery/kinds-answer';
import { isEventKind, isSecretKind, kindKey } from '../clusters/kind-info';
import { stripSecret } from '../clusters/secrets-strip';
import { ProblemError } from '../errors';
import { KubeRequestError } from '../kube/kube-client';
import { reasonOf } from './capture-logs';
import { type CaptureScope, forbiddenGap, inScope } from './capture-scope';
import { KINDS_LIMITS, kindProblem, kindRowBytes, type SnapshotKind } from './kinds-table';
import type { CaptureSource } from './source';
import type { SnapshotWriter } from './writer';

/**
 * The objects part of a capture: every kind the cluster's discovery serves that can be listed
 * (custom resources and the CRDs included), or only those a request names, into the objects table,
 * and those kinds into the kinds table. With `--authorize rbac` only the namespaces where the
 * taker may list a kind (capture-scope.ts); a kind it may list nowhere counts as failed.
 *
 * Rules:
 * - The nine come from the cluster's watch caches (consistent, and no relist where they run);
 *   every other kind is listed from the cluster in pages of PAGE_LIMIT, each page written before
 *   the next is asked for, LIST_CONCURRENCY kinds at a time: a capture holds a few pages, never a
 *   whole cluster. A continue token that expired (410) starts that kind's list again, once.
 * - Events are not listed here: they keep their own table (capture.ts). Their kinds are still
 *   rows of the kinds table, so an opened snapshot shows the tree the cluster showed.
 * - A Secret keeps no value: each is stripped (secrets-strip.ts) as its page is parsed, before
 *   anything else touches it, so its values reach no row, log or gap of the file.
 * - What fails is a gap and the capture goes on: discovery (the nine are then taken, as the only
 *   kinds known), a group version discovery could not read, a kind that cannot be listed (rows
 *   already written stay), a kind that does not fit the kinds table. Once the cluster itself is
 *   gone (unreachable, timing out) the kinds not yet listed are not asked for, each a gap with
 *   that reason. Only when every kind failed does the capture fail (CaptureFailed, capture.ts).
 */

/** A kind a request names, resolved (as ClusterConnection.kind resolves it); known by group and plural. */
export interface WantedKind {
  resourceType: string;
  group: string;
  plural: string;
}

export interface KindsRequest {
  /** Only these kinds, events aside; every listable kind when absent. */
  kinds?: readonly WantedKind[];
  progress: SnapshotProgress;
  gaps: SnapshotGap[];
  signal: AbortSignal;
}

export interface KindsResult {
  /** The pods, for their logs; undefined when they were not listed. */
  pods: readonly ResourceEntry[] | undefined;
  /** Kinds whose list was asked for, and the reasons of those that failed. */
  attempted: number;
  failures: string[];
}

export const PAGE_LIMIT = '500';
export const LIST_CONCURRENCY = 4;
/** Rows written between two yields to the event loop. */
const BATCH = 2_000;

/** What a snapshot that could not read discovery still knows: the nine. */
export const NINE: readonly SnapshotKind[] = snapshotKindRows().map((k) => ({
  ...k,
  singular: k.resourceType,
}));

/** The nine's row of RESOURCE_KINDS, for a kind of discovery that is one of them. */
const nineOf = (k: SnapshotKind): ResourceKindInfo | undefined =>
  Object.values(RESOURCE_KINDS).find((r) => r.group === k.group && r.plural === k.plural);

/** A kind's gap part: its plural, with its group outside the core group and the nine. */
export const partOf = (k: SnapshotKind): string =>
  k.group === '' || nineOf(k) ? k.plural : `${k.plural}.${k.group}`;

/** The path listing every object of a kind, in all namespaces. */
export const listPath = (k: Pick<SnapshotKind, 'group' | 'version' | 'plural'>): string =>
  k.group === '' ? `/api/${k.version}/${k.plural}` : `/apis/${k.group}/${k.version}/${k.plural}`;

/** Failures that say the cluster is gone, not that one kind is: the rest is not asked. */
function clusterGone(err: unknown): boolean {
  return (
    err instanceof ProblemError && (err.code === 'cluster_unreachable' || err.code === 'cluster_timeout')
  );
}

async function discover(source: CaptureSource, req: KindsRequest): Promise<readonly SnapshotKind[]> {
  try {
    const found = await source.discovery(req.signal);
    for (const g of found.gaps)
      req.gaps.push({ part: 'discovery', target: g.groupVersion, reason: g.message });
    return found.kinds;
  } catch (err) {
    if (req.signal.aborted) throw req.signal.reason;
    req.gaps.push({
      part: 'discovery',
      reason: `${reasonOf(err)}; only the nine built-in kinds Skiff knows were taken`,
    });
    return NINE;
  }
}

/** The kinds in scope that fit the kinds table (the others a gap each), events among them. */
function scope(served: readonly SnapshotKind[], req: KindsRequest): SnapshotKind[] {
  const wanted = req.kinds ? new Set(req.kinds.map(kindKey)) : undefined;
  for (const w of req.kinds ?? [])
    if (!served.some((k) => kindKey(k) === kindKey(w)))
      req.gaps.push({ part: w.resourceType, reason: 'the cluster does not serve this kind (any more)' });
  let bytes = 0;
  const taken: SnapshotKind[] = [];
  for (const k of served) {
    if (wanted && !wanted.has(kindKey(k)) && !isEventKind(k)) continue;
    const problem =
      kindProblem(k) ??
      (taken.length >= KINDS_LIMITS.rows || bytes + kindRowBytes(k) > KINDS_LIMITS.totalBytes
        ? 'the cluster serves more kinds than a snapshot holds'
        : undefined);
    if (problem) {
      req.gaps.push({ part: partOf(k), reason: `not taken: ${problem}` });
      continue;
    }
    bytes += kindRowBytes(k);
    taken.push(k);
  }
  return taken;
}

interface ObjectList {
  metadata?: { continue?: string };
  items?: KubeObject[];
}

/** Lists one kind page by page into the writer; a continue token that expired starts it over, once. */
async function listKind(
  source: CaptureSource,
  writer: SnapshotWriter,
  k: SnapshotKind,
  req: KindsRequest,
  scope: CaptureScope,
) {
  const apiVersion = k.group === '' ? k.version : `${k.group}/${k.version}`;
  const secret = isSecretKind(k);
  let token: string | undefined;
  let restarted = false;
  for (;;) {
    let page: ObjectList;
    try {
      page = await source.client.getJson<ObjectList>(listPath(k), {
        query: { limit: PAGE_LIMIT, ...(token ? { continue: token } : {}) },
        signal: req.signal,
        timeoutMs: source.timeoutMs,
      });
    } catch (err) {
      if (!(token && !restarted && err instanceof KubeRequestError && err.statusCode === 410)) throw err;
      restarted = true;
      token = undefined;
      req.progress.objects -= writer.dropObjects(k.resourceType);
      continue;
    }
    for (const item of page.items ?? []) {
      if (typeof item?.metadata?.name !== 'string') continue;
      if (!inScope(scope, item.metadata.namespace ?? '')) continue;
      const clean = cleanObject(secret ? stripSecret(item) : item, apiVersion, k.kind);
      writer.object(
        k.resourceType,
        clean.metadata.namespace ?? '',
        clean.metadata.name,
        JSON.stringify(clean),
      );
      req.progress.objects++;
    }
    token = page.metadata?.continue || undefined;
    await yieldToEventLoop();
    if (!token) return;
  }
}

/** Writes one of the nine from its cache; answers its entries. */
async function cachedKind(
  source: CaptureSource,
  writer: SnapshotWriter,
  k: SnapshotKind,
  nine: ResourceKindInfo,
  req: KindsRequest,
  scope: CaptureScope,
) {
  const all = await source.objects(nine, req.signal);
  const entries = scope === undefined ? all : all.filter((e) => inScope(scope, e.namespace));
  let n = 0;
  for (const e of entries) {
    writer.object(k.resourceType, e.namespace, e.name, e.json);
    req.progress.objects++;
    if (++n % BATCH === 0) await yieldToEventLoop();
  }
  return entries;
}

/** Writes the kinds table and every object of the kinds in scope (writer.begin/commit around it). */
export async function captureKinds(
  source: CaptureSource,
  writer: SnapshotWriter,
  req: KindsRequest,
): Promise<KindsResult> {
  const kinds = scope(await discover(source, req), req);
  for (const k of kinds) writer.kind(k);
  const queue = kinds.filter((k) => !isEventKind(k));
  const result: KindsResult = { pods: undefined, attempted: queue.length, failures: [] };
  let gone: string | undefined;
  const fail = (k: SnapshotKind, reason: string) => {
    result.failures.push(reason);
    req.gaps.push({ part: partOf(k), reason });
  };
  const worker = async () => {
    for (let k = queue.shift(); k; k = queue.shift()) {
      if (gone !== undefined) {
        fail(k, gone);
        continue;
      }
      try {
        // `--authorize rbac`: only where the taker may list the kind; the rest is a gap.
        const attrs = { verb: 'list', group: k.group, resource: k.plural } as const;
        const scope = source.scope ? await source.scope(attrs, req.signal) : undefined;
        const forbidden = forbiddenGap(partOf(k), attrs, scope, k.namespaced);
        if (forbidden && (!k.namespaced || scope?.allowed.size === 0)) {
          fail(k, forbidden.reason);
          continue;
        }
        if (forbidden) req.gaps.push(forbidden);
        const nine = nineOf(k);
        if (!nine) await listKind(source, writer, k, req, scope);
        else {
          const entries = await cachedKind(source, writer, k, nine, req, scope);
          if (nine.singular === 'pod') result.pods = entries;
        }
      } catch (err) {
        if (req.signal.aborted) throw req.signal.reason;
        if (clusterGone(err)) gone ??= reasonOf(err);
        fail(k, reasonOf(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIST_CONCURRENCY, queue.length) }, worker));
  return result;
}
