/**
 * Where the clusters come from at start: kubeconfig contexts (kube/kubeconfig.ts) and the embedded
 * demo cluster, for both entry points alike (loadClusterSources below).
 */
import { randomBytes } from 'node:crypto';
import { type Simulator, type SimulatorOptions, startSimulator } from '@skiff/kube-simulator';
import {
  type ContextSource,
  contextsFromYaml,
  loadContexts,
  resolveKubeconfigPaths,
} from '../kube/kubeconfig';

export interface ClusterSources {
  /** The kubeconfig files read, in order. */
  paths: string[];
  contexts: ContextSource[];
  demo?: ContextSource;
  simulator?: Simulator;
}

/**
 * Kubeconfig contexts from the usual places, plus the embedded demo cluster when asked for or when
 * there is nothing else to show. The one way both entry points (`serve` and the desktop shell)
 * find their clusters; checking that files named on a command line exist is the command line's job.
 */
export async function loadClusterSources(
  kubeconfig: readonly string[],
  wantDemo: boolean,
  storedPaths: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
  /** Options of the demo cluster, such as a short event TTL. */
  demoOptions: Pick<SimulatorOptions, 'eventTtlMs' | 'scenarios'> = {},
  /** False when something else will be shown (snapshots opened at start): no demo unless asked for. */
  demoWhenEmpty = true,
): Promise<ClusterSources> {
  const paths = resolveKubeconfigPaths(kubeconfig, env, storedPaths);
  const contexts = loadContexts(paths);
  if (!wantDemo && (contexts.length > 0 || !demoWhenEmpty)) return { paths, contexts };
  // HTTPS with a CA made for this run and a token of its own, as kind and k3d serve a cluster:
  // kubectl reads the demo through `serve --demo-kubeconfig`, and sends no token over http.
  const simulator = await startSimulator({
    tickMs: 2_000,
    tls: true,
    token: randomBytes(24).toString('base64url'),
    ...demoOptions,
  });
  const demo = contextsFromYaml(simulator.kubeconfigYaml('demo'))[0]!;
  return { paths, contexts, demo, simulator };
}
