/**
 * "What changed before it started failing" for one object: its failure and onset (signals.ts,
 * evidence.ts), its related objects (related.ts), their recorded changes in the window before the
 * onset (reads.ts), ranked (rank.ts), and the first failed run's kept logs.
 *
 * Rules (docs/api.md "Diagnosis"):
 * - The object is read from its kind's watch cache, as explanations read it (404 when absent, 409
 *   when a namespaced kind named without a namespace has the name in several namespaces).
 * - A Deployment is also failing when a pod of its newest ReplicaSet is (a bad rollout fails its
 *   new pods long before the progress deadline); its onset is then theirs, and so are its kept logs.
 * - The window is [onset − window, onset + 5 s]: Kubernetes stamps events in whole seconds and
 *   Skiff stamps a change when its watch sees it, so a change recorded just after the onset's
 *   second may have come first.
 * - Recorded rows are read through recordedSource only (a snapshot answers as of its takenAt);
 *   reads first write what the recorder holds (`flush`), so a change just seen is never missing.
 * - `--authorize rbac`: the caller's `get` of the object is checked by the operation; here each
 *   change is kept only when the caller may `get` its kind in its namespace (`hidden` counts the
 *   rest) and the kept logs only with `get pods/log`.
 */
import type {
  ChangeBefore,
  Diagnosis,
  DiagnosisKeptLog,
} from '../../../../src-shared/contract/diagnosis-operations';
import { MAX_DIAGNOSIS_CHANGES } from '../../../../src-shared/contract/diagnosis-operations';
import type { Relations } from '../../../../src-shared/contract/relations-operations';
import type { ReadAccess } from '../../auth/rbac/access';
import type { ResourceEntry } from '../../cache/entries';
import { resourceRows } from '../../cache/list-queries';
import type { ClusterConnection } from '../../clusters/cluster';
import type { KindInfo } from '../../clusters/kind-info';
import type { EventHistory } from '../../events/history/index';
import { clusterSource } from '../../relations/cluster-source';
import { relationsOf } from '../../relations/relations';
import type { StorageBackend } from '../../storage/backend';
import { recordedSource } from '../source';
import { firstEvent } from './evidence';
import { type RankedRow, rankChanges } from './rank';
import { changesIn, firstFailedRun } from './reads';
import { relatedRefs } from './related';
import { type Candidate, type ObjectJson, onsetOf, readStatus, timeOf } from './signals';

/** How long after the onset a recorded change still counts as before it (see the rules). */
export const ONSET_GRACE_MS = 5_000;
/** The most failing pods of a Deployment's newest ReplicaSet whose events are read. */
const PODS_READ = 3;

export interface DiagnoseDeps {
  cluster: ClusterConnection;
  history: EventHistory;
  backend: StorageBackend;
  access: ReadAccess;
  /** Writes what the change recorder holds, so a read sees every change seen so far. */
  flush: () => Promise<void>;
  now: () => number;
  signal: AbortSignal;
}

interface Located {
  entry: ResourceEntry;
  object: ObjectJson & { metadata: { uid?: string; name?: string; ownerReferences?: unknown } };
}

type Meta = { uid?: unknown; creationTimestamp?: unknown; ownerReferences?: unknown; annotations?: unknown };
const metaOf = (o: ObjectJson) => (o.metadata ?? {}) as Meta;
const uidOf = (o: ObjectJson) => (typeof metaOf(o).uid === 'string' ? (metaOf(o).uid as string) : undefined);

async function rowsOf(deps: DiagnoseDeps, kind: KindInfo, namespace: string) {
  const cache = deps.cluster.resources(kind);
  await cache.acquire(deps.signal);
  return resourceRows(cache.read().view, kind.namespaced ? namespace : '', undefined);
}

const ownedBy = (e: ResourceEntry, uid: string) => {
  const refs = metaOf(JSON.parse(e.json) as ObjectJson).ownerReferences;
  return Array.isArray(refs) && refs.some((r) => (r as { uid?: unknown }).uid === uid);
};
const revisionOf = (e: ResourceEntry) => {
  const a = metaOf(JSON.parse(e.json) as ObjectJson).annotations as Record<string, unknown> | undefined;
  return Number(a?.['deployment.kubernetes.io/revision'] ?? 0) || 0;
};

/** The pods of a Deployment's newest ReplicaSet (most revision), oldest name first. */
async function newestPods(deps: DiagnoseDeps, namespace: string, uid: string): Promise<Located[]> {
  const kinds = await deps.cluster.kinds(deps.signal);
  const rsKind = kinds.find((k) => k.group === 'apps' && k.kind === 'ReplicaSet');
  const podKind = kinds.find((k) => k.group === '' && k.kind === 'Pod');
  if (!rsKind || !podKind) return [];
  const sets = (await rowsOf(deps, rsKind, namespace)).filter((e) => ownedBy(e, uid));
  const newest = sets.sort((a, b) => revisionOf(b) - revisionOf(a))[0];
  const rsUid = newest && uidOf(JSON.parse(newest.json) as ObjectJson);
  if (!rsUid) return [];
  return (await rowsOf(deps, podKind, namespace))
    .filter((e) => ownedBy(e, rsUid))
    .map((entry) => ({ entry, object: JSON.parse(entry.json) as Located['object'] }));
}

/** A pod's failure, its onset candidates (events and kept logs included) and its first failed run. */
async function podEvidence(
  deps: DiagnoseDeps,
  pod: Located,
  source: Awaited<ReturnType<typeof recordedSource>>,
): Promise<{
  candidates: Candidate[];
  kept: DiagnosisKeptLog | undefined;
  failing: boolean;
  words: string[];
}> {
  const reading = readStatus('Pod', pod.object);
  const uid = uidOf(pod.object);
  const candidates = [...reading.candidates];
  if (reading.events !== 'none') {
    const subject = {
      kindKey: 'pod',
      namespace: pod.entry.namespace,
      name: pod.entry.name,
      uid,
      createdMs: timeOf(metaOf(pod.object).creationTimestamp),
    };
    const event = await firstEvent(deps.cluster, deps.history, subject, reading.events, deps.signal);
    if (event) candidates.push(event);
  }
  const kept =
    reading.failures.length > 0 && source
      ? await firstFailedRun(source, pod.entry.namespace, pod.entry.name, uid)
      : undefined;
  if (kept)
    candidates.push({
      type: 'FirstRestart',
      message: `container ${kept.container} first failed (exit code ${kept.exitCode ?? 'unknown'}, ${kept.reason}); Skiff kept its logs`,
      timeMs: Date.parse(kept.finishedAt),
    });
  return {
    candidates,
    kept,
    failing: reading.failures.length > 0,
    words: reading.failures.map((f) => f.message),
  };
}

/** Relations of an object, or undefined when they cannot be read (the diagnosis looks at less). */
async function relationsOrNone(
  deps: DiagnoseDeps,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
): Promise<Relations | undefined> {
  try {
    return (await relationsOf(clusterSource(deps.cluster, deps.signal), kind, namespace, name)).relations;
  } catch (err) {
    if (deps.signal.aborted) throw err;
    return undefined;
  }
}

/** The changes the caller may read; how many were left out. */
async function readable(
  deps: DiagnoseDeps,
  rows: RankedRow[],
): Promise<{ rows: RankedRow[]; hidden: number }> {
  if (deps.access.open) return { rows, hidden: 0 };
  const kinds = new Map((await deps.cluster.kinds(deps.signal)).map((k) => [k.resourceType, k]));
  const checks = new Map<string, Promise<boolean>>();
  const check = (r: RankedRow) => {
    const key = `${r.ref.resourceType}\u0000${r.ref.namespace ?? ''}`;
    let answer = checks.get(key);
    if (!answer) {
      const kind = kinds.get(r.ref.resourceType);
      answer = kind
        ? deps.access.allows({
            verb: 'get',
            group: kind.group,
            resource: kind.plural,
            ...(r.ref.namespace !== undefined ? { namespace: r.ref.namespace } : {}),
          })
        : Promise.resolve(false);
      checks.set(key, answer);
    }
    return answer;
  };
  const allowed = await Promise.all(rows.map(check));
  const kept = rows.filter((_, i) => allowed[i]);
  return { rows: kept, hidden: rows.length - kept.length };
}

export async function diagnose(
  deps: DiagnoseDeps,
  kind: KindInfo,
  entry: ResourceEntry,
  windowMs: number,
): Promise<Diagnosis> {
  const object = JSON.parse(entry.json) as Located['object'];
  const namespace = kind.namespaced ? entry.namespace : '';
  const uid = uidOf(object);
  const source = await recordedSource(deps.cluster, deps.backend);
  if (source && !source.frozen) await deps.flush();
  const now = source?.asOfMs ?? deps.now();

  const reading = readStatus(kind.kind, object);
  const failures = [...reading.failures];
  const candidates = [...reading.candidates];
  let kept: DiagnosisKeptLog | undefined;
  if (kind.group === '' && kind.kind === 'Pod') {
    const pod = await podEvidence(deps, { entry, object }, source);
    candidates.splice(0, candidates.length, ...pod.candidates);
    kept = pod.kept;
  } else if (kind.group === 'apps' && kind.kind === 'Deployment' && uid) {
    const failing: Located[] = [];
    for (const p of await newestPods(deps, entry.namespace, uid))
      if (readStatus('Pod', p.object).failures.length > 0) failing.push(p);
    for (const p of failing.slice(0, PODS_READ)) {
      const pod = await podEvidence(deps, p, source);
      failures.push({
        type: 'NewReplicaSetFailing',
        message: `pod ${p.entry.name} of the newest ReplicaSet: ${pod.words.join('; ')}`,
      });
      candidates.push(...pod.candidates);
      if (pod.kept && (!kept || Date.parse(pod.kept.finishedAt) < Date.parse(kept.finishedAt)))
        kept = pod.kept;
    }
  }
  const { onsetMs, signals } = onsetOf(kind.kind, failures, candidates, reading.diagnosed, now);
  const ref = {
    kind: kind.kind,
    resourceType: kind.resourceType,
    ...(kind.namespaced ? { namespace: entry.namespace } : {}),
    name: entry.name,
    ...(uid ? { uid } : {}),
  };
  if (onsetMs === undefined) return { object: ref, onset: null, signals, changesBefore: [], related: 0 };

  const relations = await relationsOrNone(
    deps,
    kind,
    kind.namespaced ? entry.namespace : undefined,
    entry.name,
  );
  const root = relations?.owners.at(-1);
  const rootKind = root
    ? (await deps.cluster.kinds(deps.signal)).find((k) => k.resourceType === root.resourceType)
    : undefined;
  const rootRelations =
    root && rootKind && !root.missing
      ? await relationsOrNone(deps, rootKind, root.namespace, root.name)
      : undefined;
  const refs = relatedRefs(
    { resourceType: kind.resourceType, namespace, name: entry.name },
    relations,
    rootRelations,
  );
  const from = onsetMs - windowMs;
  const until = onsetMs + ONSET_GRACE_MS;
  const rows = source ? await changesIn(source, refs, from, until, onsetMs) : [];
  const { rows: allowed, hidden } = await readable(
    deps,
    rankChanges(rows, windowMs, Number.MAX_SAFE_INTEGER),
  );
  const changesBefore: ChangeBefore[] = allowed
    .slice(0, MAX_DIAGNOSIS_CHANGES)
    .map(({ id: _id, ...change }) => change);
  const logsAllowed =
    kept !== undefined &&
    (await deps.access.allows({
      verb: 'get',
      group: '',
      resource: 'pods',
      subresource: 'log',
      namespace: kept.namespace,
    }));
  return {
    object: ref,
    onset: new Date(onsetMs).toISOString(),
    signals,
    window: { since: new Date(from).toISOString(), until: new Date(until).toISOString() },
    changesBefore,
    related: new Set(refs.map((r) => `${r.resourceType}\u0000${r.namespace}\u0000${r.name ?? ''}`)).size,
    ...(hidden > 0 ? { hidden } : {}),
    ...(logsAllowed ? { keptLogs: kept } : {}),
  };
}
