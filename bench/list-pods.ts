import { writeFile } from 'node:fs/promises';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { Simulator } from '../src-main/simulator/index';
import { startServiceProcess } from './service-process';
import { median, ms, table, timeIt } from './stats';

export const BENCH_PASSWORD = 'bench-admin-password-0001';
const PAGE = 1000;
const ROUNDS = 7;

/**
 * Issue 2's figure: all pods of the scaled simulator in pages of 1,000 through /v1, against the same
 * pods listed straight from the simulator with @kubernetes/client-node, in the same run.
 */
export async function benchListPods(
  sim: Simulator,
  dir: string,
  authHeaders: (serviceUrl: string) => Promise<Record<string, string>>,
  serviceArgs: string[],
) {
  const kubeconfig = `${dir}/kubeconfig`;
  await writeFile(kubeconfig, sim.kubeconfigYaml('bench'));
  const svc = await startServiceProcess(
    ['--port', '0', '--kubeconfig', kubeconfig, '--data-dir', `${dir}/data`, ...serviceArgs],
    { SKIFF_ADMIN_PASSWORD: BENCH_PASSWORD },
  );
  const base = `${svc.url}/v1/workspaces/default/observability/bench/kubernetes-proxy/pod`;
  const auth = await authHeaders(svc.url);

  const viaService = async () => {
    let n = 0;
    for (let offset = 0; ; offset += PAGE) {
      const res = await fetch(`${base}?limit=${PAGE}&offset=${offset}`, { headers: auth });
      const items = (await res.json()) as unknown[];
      n += items.length;
      if (items.length < PAGE) break;
    }
    return n;
  };
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml('bench'));
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

  const cold = await timeIt(viaService);
  const count = await viaService();
  const directCount = await direct();
  if (count !== directCount) throw new Error(`service listed ${count} pods, the simulator ${directCount}`);
  const serviceTimes: number[] = [];
  const directTimes: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Interleaved so that machine noise lands on both sides alike.
    serviceTimes.push(await timeIt(viaService));
    directTimes.push(await timeIt(direct));
  }
  const pageAt = async (offset: number) => {
    const t: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      t.push(
        await timeIt(() =>
          fetch(`${base}?limit=${PAGE}&offset=${offset}`, { headers: auth }).then((r) => r.json()),
        ),
      );
    }
    return median(t);
  };
  const firstPage = await pageAt(0);
  const lastPage = await pageAt(count - PAGE);
  const peak = svc.peakRssMiB();
  await svc.stop();

  const s = median(serviceTimes);
  const d = median(directTimes);
  console.log(`\nList ${count} pods in pages of ${PAGE} (median of ${ROUNDS})\n`);
  console.log(
    table([
      { measure: 'via /v1 (warm watch cache)', value: ms(s) },
      { measure: 'direct, client-node → simulator', value: ms(d) },
      { measure: 'ratio /v1 ÷ direct (target ≤ 1.0)', value: (s / d).toFixed(2) },
      { measure: 'first /v1 listing (cold cache)', value: ms(cold) },
      { measure: 'page at offset 0', value: ms(firstPage) },
      { measure: `page at offset ${count - PAGE}`, value: ms(lastPage) },
      { measure: 'last ÷ first page (flat ≈ 1.0)', value: (lastPage / firstPage).toFixed(2) },
      { measure: 'service peak RSS', value: `${peak.toFixed(0)} MiB` },
    ]),
  );
  return { ratio: s / d };
}
