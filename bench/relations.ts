import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { KindCount, Relations, SearchHit } from '../src-shared/contract/relations-operations';
import type { BenchService } from './bench-service';
import { ms, percentile, table } from './stats';

/**
 * Issue 23's relations and palette figures: the relations of a pod, a Deployment, a Service, a
 * ServiceAccount and a node, and palette searches, each `requests` sequential requests after
 * `warmup` (the first reads start the caches and index them), timed to the last byte over one
 * kept-alive connection. The baseline, in the same run and service, is one pod read from its cache
 * (endpoint 4): each figure is also given as its ratio to it, and the service's CPU time per
 * request beside it (its own work, whatever the shared machine does). Every answer is checked (status,
 * and the object or hits it must hold), so a fast wrong answer cannot pass.
 */

export interface RelationsCase {
  name: string;
  kind: 'baseline' | 'relations' | 'search';
  p50: number;
  p99: number;
  refs: number;
  /** The service's own CPU time per request: its work, whatever else the machine is doing. */
  cpuMsPerRequest: number;
}

interface Wrapper {
  resource: { metadata: { name: string; namespace?: string }; spec?: { nodeName?: string } };
}

async function json<T>(service: BenchService, path: string): Promise<T> {
  const res = await service.get(path);
  if (res.status !== 200) throw new Error(`${path}: status ${res.status}: ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text) as T;
}

const countRefs = (r: Relations): number => {
  let n = r.owners.length + r.uses.length + r.usedBy.length + r.selects.length + r.selectedBy.length;
  const walk = (nodes: Relations['dependents']) => {
    for (const d of nodes) {
      n++;
      walk(d.children ?? []);
    }
  };
  walk(r.dependents);
  return n;
};

export async function benchRelations(
  service: BenchService,
  requests: number,
  warmup: number,
): Promise<RelationsCase[]> {
  // As in pages.ts: a scavenge of the bench's own garbage before each request, outside the timing.
  setFlagsFromString('--expose-gc');
  const clientGc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
  setFlagsFromString('--no-expose-gc');
  const c = service.cluster;
  const [pod] = await json<Wrapper[]>(service, `${c}/kubernetes-proxy/namespaces/team-01/pod?limit=1`);
  const [svc] = await json<Wrapper[]>(service, `${c}/kubernetes-proxy/namespaces/team-01/service?limit=1`);
  if (!pod || !svc) throw new Error('the bench simulator has no pod or service in team-01');
  const podName = pod.resource.metadata.name;
  const fromPod = await json<Relations>(service, `${c}/relations/namespaces/team-01/pod/${podName}`);
  const deploy = fromPod.owners.find((o) => o.resourceType === 'deployment');
  if (!deploy) throw new Error(`pod ${podName} has no Deployment among its owners`);
  const node = pod.resource.spec?.nodeName;
  const counts = await json<KindCount[]>(service, `${c}/counts?resourceTypes=pod`);
  const pods = counts[0]?.count ?? 0;

  type Case = { name: string; kind: RelationsCase['kind']; path: string; check: (text: string) => number };
  const relation = (name: string, path: string, objectName: string): Case => ({
    name,
    kind: 'relations',
    path: `${c}/relations/${path}`,
    check: (text) => {
      const r = JSON.parse(text) as Relations;
      if (r.object.name !== objectName) throw new Error(`${path}: answered ${r.object.name}`);
      return countRefs(r);
    },
  });
  const search = (q: string, expectAtLeast: number): Case => ({
    name: `search q=${q}, page of 20`,
    kind: 'search',
    path: `${c}/search?q=${encodeURIComponent(q)}&limit=20`,
    check: (text) => {
      const hits = JSON.parse(text) as SearchHit[];
      if (hits.length < expectAtLeast || hits.some((h) => !h.name.startsWith(q)))
        throw new Error(`search q=${q}: ${hits.length} hits, or hits not starting with it`);
      return hits.length;
    },
  });
  const cases: Case[] = [
    {
      name: 'baseline: one pod from its cache (endpoint 4)',
      kind: 'baseline',
      path: `${c}/kubernetes-proxy/namespaces/team-01/pod/${podName}`,
      check: (text) => {
        if (!text.includes(`"name":"${podName}"`)) throw new Error('the pod read answered another pod');
        return 1;
      },
    },
    relation(`relations of a pod (${podName})`, `namespaces/team-01/pod/${podName}`, podName),
    relation(
      `relations of a Deployment (${deploy.name})`,
      `namespaces/team-01/deployment/${deploy.name}`,
      deploy.name,
    ),
    relation(
      `relations of a Service (${svc.resource.metadata.name})`,
      `namespaces/team-01/service/${svc.resource.metadata.name}`,
      svc.resource.metadata.name,
    ),
    relation(
      'relations of ServiceAccount team-01/default',
      'namespaces/team-01/serviceaccount/default',
      'default',
    ),
    ...(node ? [relation(`relations of node ${node}`, `node/${node}`, node)] : []),
    search(podName.slice(0, 6), 1),
    search(podName, 1),
    search('t', 1),
  ];

  const results: RelationsCase[] = [];
  for (const k of cases) {
    let refs = 0;
    const once = async () => {
      clientGc({ type: 'minor' });
      const t = performance.now();
      const res = await service.get(k.path);
      const elapsed = performance.now() - t;
      if (res.status !== 200) throw new Error(`${k.path}: status ${res.status}: ${res.text.slice(0, 300)}`);
      refs = k.check(res.text);
      return elapsed;
    };
    for (let i = 0; i < warmup; i++) await once();
    const times: number[] = [];
    const cpu0 = service.svc.cpuSeconds();
    for (let i = 0; i < requests; i++) times.push(await once());
    const cpuMsPerRequest = ((service.svc.cpuSeconds() - cpu0) * 1000) / requests;
    results.push({
      name: k.name,
      kind: k.kind,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      refs,
      cpuMsPerRequest,
    });
  }
  const base = results.find((r) => r.kind === 'baseline')!;
  console.log(
    `\nRelations and palette search with ${pods.toLocaleString('en-US')} pods cached (${requests} sequential requests per row after ${warmup} warm-up, one kept-alive connection, timed to the last byte; ratio: p99 ÷ the baseline's p99)\n`,
  );
  console.log(
    table(
      results.map((r) => ({
        request: r.name,
        'refs or hits': String(r.refs),
        p50: ms(r.p50),
        p99: ms(r.p99),
        'p99 ratio': (r.p99 / base.p99).toFixed(2),
        'service CPU per request': ms(r.cpuMsPerRequest),
      })),
    ),
  );
  return results;
}
