import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { listAll, startBenchService } from './bench-service';
import type { SimulatorProcess } from './simulator-process';
import { median, mib, ms, table, timeIt, type Verdict } from './stats';

/**
 * Issue 23 §4: a cluster of N pods, N ConfigMaps and N objects of one custom resource (N = 10,000
 * at the targets' scale). A fresh service lists all three kinds through /v1, so three watch caches
 * are full: its peak RSS, and its RSS and heap after a full GC. Then each kind is listed in pages
 * of 1,000 through /v1 (warm caches) and straight from the simulator with
 * @kubernetes/client-node, interleaved in the same run, as issue 2's pod list is: the ratio is
 * /v1 ÷ direct. The ConfigMaps and the custom resource (a CRD made for this, bench.skiff.dev's
 * Widget) are created through the simulator's API before the service starts.
 */

const GROUP = 'bench.skiff.dev';
const VERSION = 'v1';
const PLURAL = 'widgets';
const PAGE = 1000;
/** Creates in flight at once: enough to keep the simulator busy, few enough to stay polite. */
const CONCURRENCY = 16;

export interface KindListFigures {
  perKind: number;
  peakMiB: number;
  settledRssMiB: number;
  heapMiB: number;
  /** Median ms of one full list, /v1 and direct, by kind. */
  lists: Array<{ kind: string; serviceMs: number; directMs: number }>;
  ratio: number;
}

async function inParallel(count: number, run: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await run(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The CRD, then `count` ConfigMaps and `count` Widgets spread over the demo's namespaces. */
async function seed(kc: KubeConfig, count: number): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const namespaces = (await core.listNamespace()).items.map((n) => n.metadata!.name!);
  await kc.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${PLURAL}.${GROUP}` },
      spec: {
        group: GROUP,
        names: { plural: PLURAL, singular: 'widget', kind: 'Widget' },
        scope: 'Namespaced',
        versions: [{ name: VERSION, served: true, storage: true }],
      },
    },
  });
  const ns = (i: number) => namespaces[i % namespaces.length]!;
  await inParallel(count, (i) =>
    core.createNamespacedConfigMap({
      namespace: ns(i),
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `bench-config-${i}`, labels: { app: `app-${i % 50}` } },
        data: { 'app.properties': `replicas=${i % 7}\nname=bench-${i}\n`, mode: 'bench' },
      },
    }),
  );
  await inParallel(count, (i) =>
    custom.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: ns(i),
      plural: PLURAL,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'Widget',
        metadata: { name: `widget-${i}`, labels: { tier: `t${i % 3}` } },
        spec: { size: i % 100, colour: ['red', 'green', 'blue'][i % 3] },
        status: { conditions: [{ type: 'Ready', status: i % 10 === 0 ? 'False' : 'True' }] },
      },
    }),
  );
}

export async function benchKindLists(
  sim: SimulatorProcess,
  dataDir: string,
  clusterId: string,
  rounds: number,
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
): Promise<KindListFigures> {
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml(clusterId));
  await seed(kc, sim.pods);
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  type Page = { items: unknown[]; metadata?: { _continue?: string; continue?: string } };
  const walk = async (page: (cont: string | undefined) => Promise<Page>) => {
    let n = 0;
    let cont: string | undefined;
    do {
      const p = await page(cont);
      n += p.items.length;
      cont = p.metadata?._continue || p.metadata?.continue || undefined;
    } while (cont);
    return n;
  };
  const kinds = [
    {
      kind: 'pod',
      direct: () => walk((c) => core.listPodForAllNamespaces({ limit: PAGE, _continue: c })),
    },
    {
      kind: 'configmap',
      direct: () => walk((c) => core.listConfigMapForAllNamespaces({ limit: PAGE, _continue: c })),
    },
    {
      kind: `widget.${GROUP}`,
      direct: () =>
        walk(
          (c) =>
            custom.listClusterCustomObject({
              group: GROUP,
              version: VERSION,
              plural: PLURAL,
              limit: PAGE,
              _continue: c,
            }) as Promise<Page>,
        ),
    },
  ];

  const service = await startBenchService(sim, dataDir, clusterId, { gcProbe: true });
  try {
    const viaService = (kind: string) => listAll(service, `${service.cluster}/kubernetes-proxy/${kind}`);
    // The first list of each fills its cache: three full caches are what the memory figures hold.
    for (const k of kinds) {
      const listed = (await viaService(k.kind)).length;
      const direct = await k.direct();
      if (listed !== direct)
        throw new Error(`the service listed ${listed} ${k.kind}s, the simulator ${direct}`);
    }
    const peakMiB = service.svc.peakRssMiB();
    const lists: KindListFigures['lists'] = [];
    for (const k of kinds) {
      const s: number[] = [];
      const d: number[] = [];
      for (let i = 0; i < rounds; i++) {
        // Interleaved, so that machine noise lands on both sides alike.
        s.push(await timeIt(() => viaService(k.kind)));
        d.push(await timeIt(k.direct));
      }
      lists.push({ kind: k.kind, serviceMs: median(s), directMs: median(d) });
    }
    const usage = await service.fullGc();
    const settledRssMiB = service.svc.rssMiB();
    const heapMiB = usage.heapUsed / 2 ** 20;
    const serviceMs = lists.reduce((a, l) => a + l.serviceMs, 0);
    const directMs = lists.reduce((a, l) => a + l.directMs, 0);
    const ratio = serviceMs / directMs;
    const n = sim.pods.toLocaleString('en-US');
    console.log(
      `\n${n} pods + ${n} ConfigMaps + ${n} ${GROUP} Widgets, each listed in pages of ${PAGE} (median of ${rounds} interleaved rounds)\n`,
    );
    console.log(
      table([
        ...lists.map((l) => ({
          kind: l.kind,
          'via /v1 (warm cache)': ms(l.serviceMs),
          'direct, client-node': ms(l.directMs),
          ratio: (l.serviceMs / l.directMs).toFixed(2),
        })),
        {
          kind: 'all three',
          'via /v1 (warm cache)': ms(serviceMs),
          'direct, client-node': ms(directMs),
          ratio: ratio.toFixed(2),
        },
      ]),
    );
    console.log(
      `\nThe service with the three caches full: peak RSS ${mib(peakMiB)}; after a full GC, RSS ${mib(settledRssMiB)} and JS heap ${mib(heapMiB)}`,
    );
    verdicts.push(
      {
        figure: `peak RSS, ${n} pods + ${n} ConfigMaps + ${n} custom resources listed`,
        measured: `${mib(peakMiB)} (after GC: RSS ${mib(settledRssMiB)}, heap ${mib(heapMiB)})`,
        target: 'recorded',
        pass: undefined,
      },
      {
        figure: `lists of the three kinds, /v1 ÷ client-node direct`,
        measured: `${ratio.toFixed(2)} (${serviceMs.toFixed(0)} ms ÷ ${directMs.toFixed(0)} ms)`,
        target: '≤ 0.60',
        pass: judge(ratio <= 0.6),
      },
    );
    return { perKind: sim.pods, peakMiB, settledRssMiB, heapMiB, lists, ratio };
  } finally {
    await service.stop();
  }
}
