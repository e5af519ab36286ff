import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { median, ms, table, timeIt } from './stats';

export const BENCH_PASSWORD = 'bench-admin-password-0001';
const PAGE = 1000;

export interface ListPodsResult {
  count: number;
  serviceMs: number;
  directMs: number;
  ratio: number;
  coldMs: number;
}

/**
 * Issue 2's figure: all pods of the scaled simulator in pages of 1,000 through /v1, against the same
 * pods listed straight from the simulator with @kubernetes/client-node, in the same run. The
 * service is started by the caller and is fresh: its first listing is the cold one.
 */
export async function benchListPods(
  sim: { kubeconfigYaml(contextName?: string): string },
  service: { url: string; auth: Record<string, string>; clusterId: string },
  rounds: number,
): Promise<ListPodsResult> {
  const base = `${service.url}/v1/workspaces/default/observability/${service.clusterId}/kubernetes-proxy/pod`;
  // A cold cache still listing when the service's timeout ends answers 504 and keeps listing; the
  // cold figure then includes the retry, as a user's reload would.
  const viaService = async (cold = false) => {
    let n = 0;
    const patience = Date.now() + 120_000;
    for (let offset = 0; ; ) {
      const res = await fetch(`${base}?limit=${PAGE}&offset=${offset}`, { headers: service.auth });
      if (cold && res.status === 504 && Date.now() < patience) {
        await res.arrayBuffer();
        continue;
      }
      if (res.status !== 200)
        throw new Error(`pod page at ${offset} answered ${res.status}: ${await res.text()}`);
      const items = (await res.json()) as unknown[];
      n += items.length;
      if (items.length < PAGE) return n;
      offset += PAGE;
    }
  };
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml(service.clusterId));
  const core = kc.makeApiClient(CoreV1Api);
  const direct = async () => {
    let n = 0;
    let cont: string | undefined;
    do {
      const page = await core.listPodForAllNamespaces({ limit: PAGE, _continue: cont });
      n += page.items.length;
      cont = page.metadata?._continue || undefined;
    } while (cont);
    return n;
  };

  const cold = await timeIt(() => viaService(true));
  const count = await viaService();
  const directCount = await direct();
  if (count !== directCount) throw new Error(`service listed ${count} pods, the simulator ${directCount}`);
  const serviceTimes: number[] = [];
  const directTimes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Interleaved so that machine noise lands on both sides alike.
    serviceTimes.push(await timeIt(() => viaService()));
    directTimes.push(await timeIt(direct));
  }
  const pageAt = async (offset: number) => {
    const t: number[] = [];
    for (let i = 0; i < rounds; i++) {
      t.push(
        await timeIt(() =>
          fetch(`${base}?limit=${PAGE}&offset=${offset}`, { headers: service.auth }).then((r) => r.json()),
        ),
      );
    }
    return median(t);
  };
  const firstPage = await pageAt(0);
  const lastPage = await pageAt(count - PAGE);

  const s = median(serviceTimes);
  const d = median(directTimes);
  console.log(`\nList ${count} pods in pages of ${PAGE} (median of ${rounds} interleaved rounds)\n`);
  console.log(
    table([
      { measure: 'via /v1 (warm watch cache)', value: ms(s) },
      { measure: 'direct, client-node → simulator', value: ms(d) },
      { measure: 'ratio /v1 ÷ direct (target ≤ 0.6)', value: (s / d).toFixed(2) },
      { measure: 'first /v1 listing (cold cache)', value: ms(cold) },
      { measure: 'page at offset 0', value: ms(firstPage) },
      { measure: `page at offset ${count - PAGE}`, value: ms(lastPage) },
      { measure: 'last ÷ first page (flat ≈ 1.0)', value: (lastPage / firstPage).toFixed(2) },
    ]),
  );
  return { count, serviceMs: s, directMs: d, ratio: s / d, coldMs: cold };
}
