import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** One kubeconfig context, with a KubeConfig of its own whose current context is that context. */
export interface ContextSource {
  context: string;
  server: string;
  kubeConfig: KubeConfig;
}

/**
 * Which kubeconfig files to read, in kubectl's order of precedence: explicit paths, else
 * $KUBECONFIG (colon-separated), else the files chosen in Settings, else ~/.kube/config. Missing
 * files are skipped, as kubectl does.
 */
export function resolveKubeconfigPaths(
  explicit: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  fromSettings: readonly string[] = [],
): string[] {
  if (explicit.length > 0) return [...explicit];
  const fromEnv = (env.KUBECONFIG ?? '').split(delimiter).filter((p) => p.trim() !== '');
  if (fromEnv.length > 0) return fromEnv.filter((p) => existsSync(p));
  if (fromSettings.length > 0) return fromSettings.filter((p) => existsSync(p));
  const home = join(env.HOME ?? homedir(), '.kube', 'config');
  return existsSync(home) ? [home] : [];
}

/**
 * Merges kubeconfig files as kubectl does: for clusters, users and contexts the first file that
 * defines a name wins; later definitions of the same name are ignored rather than rejected
 * (client-node's mergeConfig throws on duplicates, which kubectl users would not expect).
 */
export function loadContexts(paths: readonly string[]): ContextSource[] {
  const merged = { clusters: new Map(), users: new Map(), contexts: new Map() } as {
    clusters: Map<string, ReturnType<KubeConfig['getClusters']>[number]>;
    users: Map<string, ReturnType<KubeConfig['getUsers']>[number]>;
    contexts: Map<string, ReturnType<KubeConfig['getContexts']>[number]>;
  };
  for (const path of paths) {
    const kc = new KubeConfig();
    kc.loadFromFile(path);
    for (const c of kc.getClusters()) if (!merged.clusters.has(c.name)) merged.clusters.set(c.name, c);
    for (const u of kc.getUsers()) if (!merged.users.has(u.name)) merged.users.set(u.name, u);
    for (const c of kc.getContexts()) if (!merged.contexts.has(c.name)) merged.contexts.set(c.name, c);
  }
  return contextsOf(merged.clusters, merged.users, merged.contexts);
}

/** Contexts of one kubeconfig document (used for the embedded demo cluster). */
export function contextsFromYaml(yaml: string): ContextSource[] {
  const kc = new KubeConfig();
  kc.loadFromString(yaml);
  const byName = <T extends { name: string }>(items: T[]) => new Map(items.map((i) => [i.name, i]));
  return contextsOf(byName(kc.getClusters()), byName(kc.getUsers()), byName(kc.getContexts()));
}

function contextsOf(
  clusters: Map<string, ReturnType<KubeConfig['getClusters']>[number]>,
  users: Map<string, ReturnType<KubeConfig['getUsers']>[number]>,
  contexts: Map<string, ReturnType<KubeConfig['getContexts']>[number]>,
): ContextSource[] {
  const out: ContextSource[] = [];
  for (const ctx of contexts.values()) {
    const cluster = clusters.get(ctx.cluster);
    // A context pointing at a cluster nobody defined cannot be reached; kubectl errors on use, we skip it.
    if (!cluster) continue;
    const user = users.get(ctx.user);
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [cluster],
      users: user ? [user] : [],
      contexts: [ctx],
      currentContext: ctx.name,
    });
    out.push({ context: ctx.name, server: cluster.server, kubeConfig });
  }
  return out;
}
