import { existsSync } from 'node:fs';
import {
  type ContextSource,
  contextsFromYaml,
  loadContexts,
  resolveKubeconfigPaths,
} from '../service/clusters/kubeconfig';
import { type Simulator, startSimulator } from '../simulator/index';
import { UsageError } from './args';

export interface ClusterSources {
  /** The kubeconfig files read, in order. */
  paths: string[];
  contexts: ContextSource[];
  demo?: ContextSource;
  simulator?: Simulator;
}

/**
 * Kubeconfig contexts from the usual places, plus the embedded demo cluster when asked for or when
 * there is nothing else to show. Shared by `serve` and the desktop shell.
 */
export async function loadClusterSources(
  kubeconfig: readonly string[],
  wantDemo: boolean,
  storedPaths: readonly string[] = [],
): Promise<ClusterSources> {
  for (const p of kubeconfig) if (!existsSync(p)) throw new UsageError(`--kubeconfig ${p}: no such file`);
  const paths = resolveKubeconfigPaths(kubeconfig, process.env, storedPaths);
  const contexts = loadContexts(paths);
  if (!wantDemo && contexts.length > 0) return { paths, contexts };
  const simulator = await startSimulator({ tickMs: 2_000 });
  const demo = contextsFromYaml(simulator.kubeconfigYaml('demo'))[0]!;
  return { paths, contexts, demo, simulator };
}
