import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type BenchService, listAll } from './bench-service';
import { changeHistorySize, type Store, startStoreService } from './recording-load';
import { planRows, type Seeded, type SeedRef, seedPostgres, seedSqlite } from './recording-seed';
import { percentile } from './stats';

/**
 * Issue 27's reads at 1,000,000 recorded changes, on one backend: the changes are seeded straight
 * into change_history of a stopped service (shuffled, recording-seed.ts), for the objects the
 * simulator really has, then the service is started again (`--record-changes off`, so nothing is
 * added to the seeded rows) and each read is timed: `warmup` requests, then `requests` sequential
 * ones over one kept-alive connection, to the last byte, a scavenge in this client before each.
 * Every answer is checked against the seeded rows (status, x-Total and exactly the expected
 * resourceVersions in order), so a fast wrong answer is not a figure; a read that answers wrong
 * (not there yet, say) is reported as not measured with what it answered.
 *
 * Cases: an object's history (first page and its last), the feed (first and last page, and both
 * filtered by namespace and kind), a diagnosis of a crash-looping pod whose owners, config and
 * node changed in the 30 minutes before its onset, and the event history's includeExpired page at
 * offset 99,900 (100,000 events recorded by the service itself).
 */

const PAGE = 100;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface ReadCase {
  name: string;
  path: string;
  p50?: number;
  p99?: number;
  cpuMsPerRequest?: number;
  /** Why there is no figure. */
  notMeasured?: string;
}

interface Listed {
  resource: {
    kind?: string;
    metadata: { name: string; namespace?: string; ownerReferences?: Array<{ kind: string; name: string }> };
    spec?: {
      nodeName?: string;
      volumes?: Array<{ configMap?: { name: string } }>;
      containers?: Array<{ envFrom?: Array<{ configMapRef?: { name: string } }> }>;
    };
    status?: { containerStatuses?: Array<{ state?: { waiting?: { reason?: string } } }> };
  };
}

type Check = (res: { status: number; headers: Record<string, string>; text: string }) => string | undefined;

const clientGc = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
  setFlagsFromString('--no-expose-gc');
  return gc;
})();

/** A cache still making its first list answers 503 (or 504): waited for, as a user would reload. */
async function untilReady(service: BenchService, path: string) {
  for (const patience = Date.now() + 120_000; ; ) {
    const res = await service.get(path);
    if ((res.status !== 503 && res.status !== 504) || Date.now() > patience) return res;
    await new Promise((r) => setTimeout(r, 1_000 * Number(res.headers['retry-after'] ?? 1)));
  }
}

/** Each case's bound: a read that takes 1 s would otherwise hold the bench for six minutes. */
const CASE_BUDGET_MS = 30_000;

async function timeCase(
  service: BenchService,
  name: string,
  path: string,
  check: Check,
  requests: number,
  warmup: number,
): Promise<ReadCase> {
  const once = async () => {
    clientGc({ type: 'minor' });
    const t = performance.now();
    const res = await service.get(path);
    const elapsed = performance.now() - t;
    const wrong = check(res);
    if (wrong) throw new Error(wrong);
    return elapsed;
  };
  // The timed requests say what is wrong if this does.
  await untilReady(service, path).catch(() => undefined);
  const deadline = performance.now() + CASE_BUDGET_MS;
  try {
    const warm: number[] = [];
    for (let i = 0; i < warmup && performance.now() < deadline - (2 * CASE_BUDGET_MS) / 3; i++)
      warm.push(await once());
    const times: number[] = [];
    const cpu0 = service.svc.cpuSeconds();
    while (times.length < requests && (times.length === 0 || performance.now() < deadline))
      times.push(await once());
    // A cut case says how slow its warm-up was: that is where the time went.
    const cut = `only ${times.length} requests in ${CASE_BUDGET_MS / 1000} s, after ${warm.length} warm-up ones up to ${Math.max(0, ...warm).toFixed(0)} ms`;
    return {
      name: times.length < requests ? `${name} (${cut})` : name,
      path,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      cpuMsPerRequest: ((service.svc.cpuSeconds() - cpu0) * 1000) / times.length,
    };
  } catch (err) {
    return { name, path, notMeasured: (err as Error).message.slice(0, 300) };
  }
}

/** A page must be exactly these resourceVersions, in this order, with this x-Total. */
function pageCheck(expected: string[], total: number): Check {
  const want = expected.join(',');
  return (res) => {
    if (res.status !== 200) return `answered ${res.status}: ${res.text.slice(0, 200)}`;
    const got = (JSON.parse(res.text) as Array<{ resourceVersion: string }>)
      .map((c) => c.resourceVersion)
      .join(',');
    if (res.headers['x-total'] !== String(total))
      return `x-Total ${res.headers['x-total']}, expected ${total}`;
    return got === want ? undefined : `other changes than the seeded rows have there (${got.slice(0, 80)}…)`;
  };
}

/** The objects to seed changes for, from the cluster itself, and a crash-looping pod to diagnose. */
async function clusterRefs(service: BenchService) {
  const list = (type: string) => listAll<Listed>(service, `${service.cluster}/kubernetes-proxy/${type}`);
  const refs: SeedRef[] = [];
  const byKey = new Map<string, number>();
  const add = (resourceType: string, kind: string, namespace: string, name: string) => {
    const key = `${resourceType}/${namespace}/${name}`;
    if (!byKey.has(key)) byKey.set(key, refs.push({ resourceType, kind, namespace, name }) - 1);
    return byKey.get(key)!;
  };
  const pods = await list('pod');
  for (const [type, kind] of [
    ['deployment', 'Deployment'],
    ['replicaset', 'ReplicaSet'],
    ['configmap', 'ConfigMap'],
  ] as const)
    for (const o of await list(type))
      add(type, kind, o.resource.metadata.namespace ?? '', o.resource.metadata.name);
  for (const o of await list('node')) add('node', 'Node', '', o.resource.metadata.name);
  for (const p of pods) add('pod', 'Pod', p.resource.metadata.namespace ?? '', p.resource.metadata.name);
  const crashing = pods.find((p) =>
    p.resource.status?.containerStatuses?.some((s) => s.state?.waiting?.reason === 'CrashLoopBackOff'),
  )?.resource;
  // The object whose history is paged: the first Deployment, with a thousand changes of its own.
  const deployment = refs.findIndex((r) => r.resourceType === 'deployment');
  // What a diagnosis of the crashing pod looks at: itself, its owners, its ConfigMaps, its node.
  const related: number[] = [];
  if (crashing) {
    const ns = crashing.metadata.namespace ?? '';
    related.push(add('pod', 'Pod', ns, crashing.metadata.name));
    for (const o of crashing.metadata.ownerReferences ?? []) {
      if (o.kind !== 'ReplicaSet') continue;
      related.push(add('replicaset', 'ReplicaSet', ns, o.name));
      const dep = o.name.replace(/-[a-z0-9]+$/, '');
      if (byKey.has(`deployment/${ns}/${dep}`)) related.push(byKey.get(`deployment/${ns}/${dep}`)!);
    }
    for (const v of crashing.spec?.volumes ?? [])
      if (v.configMap) related.push(add('configmap', 'ConfigMap', ns, v.configMap.name));
    for (const c of crashing.spec?.containers ?? [])
      for (const e of c.envFrom ?? [])
        if (e.configMapRef) related.push(add('configmap', 'ConfigMap', ns, e.configMapRef.name));
    if (crashing.spec?.nodeName) related.push(add('node', 'Node', '', crashing.spec.nodeName));
  }
  return { refs, deployment, crashing, related: [...new Set(related)] };
}

/** The diagnosis's onset, an RFC 3339 string or an object with its time, in ms; undefined if none. */
function onsetOf(body: unknown): number | undefined {
  const onset = (body as { onset?: unknown } | null)?.onset;
  const at = typeof onset === 'string' ? onset : (onset as { time?: unknown } | null | undefined)?.time;
  const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

export interface ReadsScale {
  changes: number;
  requests: number;
  warmup: number;
}

/**
 * The reads on one backend: the service is started on `store` (to migrate and list the cluster),
 * stopped, seeded, and started again to be measured. `sim` has the events the includeExpired case
 * pages through.
 */
export async function benchReads(
  sim: { kubeconfigPath: string; events: number },
  dataDir: string,
  clusterId: string,
  store: Store,
  scale: ReadsScale,
): Promise<{ cases: ReadCase[]; seedS: number; bytes: number }> {
  const env = { SKIFF_RECORD_CHANGES: 'off', SKIFF_USAGE_INTERVAL: 'off', SKIFF_KEPT_LOGS: 'off' };
  const first = await startStoreService(sim, dataDir, clusterId, store, env);
  let cluster: Awaited<ReturnType<typeof clusterRefs>>;
  let onsetMs: number | undefined;
  try {
    cluster = await clusterRefs(first);
    // The event history filled before the rows are seeded: the diagnosis finds its onset there
    // (the first BackOff), so it is the same onset when the service is started again.
    await eventHistoryFull(first, sim.events);
    if (cluster.crashing) {
      const c = cluster.crashing;
      // Its onset, so the related changes are seeded in the window before it: the first answer
      // may be 503 while the caches it reads make their first list.
      const res = await untilReady(
        first,
        `${first.cluster}/diagnosis/namespaces/${c.metadata.namespace}/pod/${c.metadata.name}`,
      );
      onsetMs = res.status === 200 ? onsetOf(JSON.parse(res.text)) : undefined;
      console.log(
        `  diagnosis onset of ${c.metadata.name}: ${onsetMs === undefined ? `none (${res.status})` : new Date(onsetMs).toISOString()}`,
      );
    }
  } finally {
    await first.stop();
  }
  const now = Date.now();
  const before = onsetMs ?? now - 60_000;
  const seeded = planRows({
    count: scale.changes,
    refs: cluster.refs,
    extra: [
      { ref: cluster.deployment, rows: 1_000, fromMs: now - 7 * DAY, toMs: now - HOUR },
      ...cluster.related.map((ref) => ({
        ref,
        rows: 20,
        fromMs: before - 30 * 60_000,
        toMs: before - 1_000,
      })),
    ],
    fromMs: now - 7 * DAY,
    toMs: now - 60_000,
  });
  const t0 = performance.now();
  if (store.dialect === 'sqlite') seedSqlite(dataDir, clusterId, seeded);
  else await seedPostgres(store.url, clusterId, seeded);
  const seedS = (performance.now() - t0) / 1000;
  const { bytes } = await changeHistorySize(store, dataDir, clusterId);
  const service = await startStoreService(sim, dataDir, clusterId, store, env);
  try {
    return { cases: await measure(service, cluster, seeded, sim.events, scale), seedS, bytes };
  } finally {
    await service.stop();
  }
}

async function measure(
  service: BenchService,
  cluster: Awaited<ReturnType<typeof clusterRefs>>,
  seeded: Seeded,
  events: number,
  scale: ReadsScale,
): Promise<ReadCase[]> {
  const { requests, warmup } = scale;
  const listed = seeded.rows.filter((r) => r.change !== 'seen');
  const rvs = (rows: typeof listed) => rows.map((r) => String(r.rv));
  const page = (rows: string[], offset: number) => rows.slice(offset, offset + PAGE);
  const last = (n: number) => Math.max(0, n - PAGE);
  const cases: ReadCase[] = [];
  const time = async (name: string, path: string, check: Check) => {
    const c = await timeCase(service, name, path, check, requests, warmup);
    // A line as each read is done: the section takes minutes on a busy machine.
    console.log(`  ${c.name}: ${c.p99 === undefined ? 'not measured' : `p99 ${c.p99.toFixed(1)} ms`}`);
    cases.push(c);
  };

  const dep = seeded.refs[cluster.deployment]!;
  const history = rvs(listed.filter((r) => r.ref === cluster.deployment));
  const hPath = `${service.cluster}/history/namespaces/${dep.namespace}/deployment/${dep.name}?limit=${PAGE}`;
  for (const offset of [0, last(history.length)])
    await time(
      `history of deployment ${dep.name} (${history.length} changes), offset ${offset}`,
      `${hPath}&offset=${offset}`,
      pageCheck(page(history, offset), history.length),
    );

  const all = rvs(listed);
  for (const offset of [0, last(all.length)])
    await time(
      `changes feed (${all.length.toLocaleString('en-US')}), offset ${offset.toLocaleString('en-US')}`,
      `${service.cluster}/changes?limit=${PAGE}&offset=${offset}`,
      pageCheck(page(all, offset), all.length),
    );
  // The namespace with the most pods: a filter that leaves a deep page to read.
  const podsIn = new Map<string, number>();
  for (const r of seeded.refs)
    if (r.resourceType === 'pod') podsIn.set(r.namespace, (podsIn.get(r.namespace) ?? 0) + 1);
  const ns = [...podsIn].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? dep.namespace;
  const podRefs = new Set(
    seeded.refs.flatMap((r, i) => (r.resourceType === 'pod' && r.namespace === ns ? [i] : [])),
  );
  const filtered = rvs(listed.filter((r) => podRefs.has(r.ref)));
  for (const offset of [0, last(filtered.length)])
    await time(
      `changes feed namespace=${ns}&kind=Pod (${filtered.length.toLocaleString('en-US')}), offset ${offset.toLocaleString('en-US')}`,
      `${service.cluster}/changes?namespace=${ns}&kind=Pod&limit=${PAGE}&offset=${offset}`,
      pageCheck(page(filtered, offset), filtered.length),
    );

  if (cluster.crashing) {
    const c = cluster.crashing.metadata;
    await time(
      `diagnosis of crash-looping pod ${c.name} (${cluster.related.length} related objects changed before it)`,
      `${service.cluster}/diagnosis/namespaces/${c.namespace}/pod/${c.name}`,
      (res) => {
        if (res.status !== 200) return `answered ${res.status}: ${res.text.slice(0, 200)}`;
        const body = JSON.parse(res.text) as { onset?: unknown; changesBefore?: unknown[] };
        if (!Array.isArray(body.changesBefore)) return 'no changesBefore in the answer';
        if (body.onset && body.changesBefore.length === 0)
          return 'an onset, and none of the changes seeded before it';
        return undefined;
      },
    );
  } else cases.push({ name: 'diagnosis', path: '', notMeasured: 'the simulator has no crash-looping pod' });

  const expired = await includeExpired(service, events, requests, warmup).catch(
    (err: unknown): ReadCase => ({
      name: 'events includeExpired=true, offset 99,900',
      path: '',
      notMeasured: (err as Error).message,
    }),
  );
  console.log(
    `  ${expired.name}: ${expired.p99 === undefined ? 'not measured' : `p99 ${expired.p99.toFixed(1)} ms`}`,
  );
  cases.push(expired);
  return cases;
}

/** Lists the events (so the service records them) and waits, up to 4 min, until it holds them all. */
async function eventHistoryFull(service: BenchService, events: number): Promise<boolean> {
  const ev = `${service.cluster}/kubernetes-events`;
  await listAll(service, ev);
  for (const deadline = Date.now() + 240_000; Date.now() < deadline; ) {
    const res = await service.get(`${ev}?includeExpired=true&limit=1`);
    if (res.headers['x-total'] === String(events)) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/** The event history's deepest page (offset 99,900 of 100,000), checked against the live list. */
async function includeExpired(
  service: BenchService,
  events: number,
  requests: number,
  warmup: number,
): Promise<ReadCase> {
  const ev = `${service.cluster}/kubernetes-events`;
  const ids = (await listAll<{ eventId: string }>(service, ev)).map((e) => e.eventId);
  const offset = Math.max(0, ids.length - PAGE);
  const want = ids.slice(offset, offset + PAGE).join(',');
  const name = `events includeExpired=true (${ids.length.toLocaleString('en-US')}), offset ${offset.toLocaleString('en-US')}`;
  const path = `${ev}?includeExpired=true&limit=${PAGE}&offset=${offset}`;
  if (ids.length !== events) return { name, path, notMeasured: `listed ${ids.length} of ${events} events` };
  // The recorder writes the events it was shown in batches (a first read waits for it); wait
  // until the history holds them all.
  const deadline = Date.now() + 240_000;
  for (;;) {
    const res = await service.get(`${ev}?includeExpired=true&limit=1`);
    if (res.headers['x-total'] === String(ids.length)) break;
    if (Date.now() > deadline)
      return {
        name,
        path,
        notMeasured: `the event history held ${res.headers['x-total']} of ${ids.length} after 4 min`,
      };
    await new Promise((r) => setTimeout(r, 500));
  }
  return timeCase(
    service,
    name,
    path,
    (res) => {
      if (res.status !== 200) return `answered ${res.status}`;
      const got = (JSON.parse(res.text) as Array<{ eventId: string }>).map((e) => e.eventId).join(',');
      if (res.headers['x-total'] !== String(ids.length)) return `x-Total ${res.headers['x-total']}`;
      return got === want ? undefined : 'other events than the live list has there';
    },
    requests,
    warmup,
  );
}
