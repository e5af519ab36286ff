/**
 * Which kubeconfig files are read and how they merge, as kubectl does: explicit paths, else
 * $KUBECONFIG, else the files chosen in Settings, else ~/.kube/config; missing files are skipped;
 * the first file that defines a cluster, user or context name wins. One document is parsed by
 * kubeconfig-file.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  type KubeCluster,
  type KubeContext,
  type KubeconfigDocument,
  KubeconfigError,
  type KubeUser,
  parseKubeconfig,
} from './kubeconfig-file';

/** What one context reaches and as whom: its cluster and user records, read from the kubeconfig. */
export interface ContextConfig {
  context: KubeContext;
  cluster: KubeCluster;
  user: KubeUser | null;
}

/** One kubeconfig context, with the cluster and user it names. */
export interface ContextSource {
  context: string;
  server: string;
  config: ContextConfig;
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

function readKubeconfig(path: string): KubeconfigDocument {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (err) {
    throw new KubeconfigError(`kubeconfig ${path}: cannot be read (${(err as NodeJS.ErrnoException).code})`);
  }
  return parseKubeconfig(source, path);
}

/**
 * Merges kubeconfig files as kubectl does: for clusters, users and contexts the first file that
 * defines a name wins; later definitions of the same name are ignored rather than rejected.
 */
export function loadContexts(paths: readonly string[]): ContextSource[] {
  const clusters = new Map<string, KubeCluster>();
  const users = new Map<string, KubeUser>();
  const contexts = new Map<string, KubeContext>();
  for (const path of paths) {
    const doc = readKubeconfig(path);
    for (const c of doc.clusters) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of doc.users) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of doc.contexts) if (!contexts.has(c.name)) contexts.set(c.name, c);
  }
  return contextsOf(clusters, users, contexts);
}

/** Contexts of one kubeconfig document (used for the embedded demo cluster and in tests). */
export function contextsFromYaml(yaml: string): ContextSource[] {
  const doc = parseKubeconfig(yaml);
  const byName = <T extends { name: string }>(items: T[]) => new Map(items.map((i) => [i.name, i]));
  return contextsOf(byName(doc.clusters), byName(doc.users), byName(doc.contexts));
}

function contextsOf(
  clusters: ReadonlyMap<string, KubeCluster>,
  users: ReadonlyMap<string, KubeUser>,
  contexts: ReadonlyMap<string, KubeContext>,
): ContextSource[] {
  const out: ContextSource[] = [];
  for (const context of contexts.values()) {
    const cluster = clusters.get(context.cluster);
    // A context pointing at a cluster nobody defined cannot be reached; kubectl errors on use, we skip it.
    if (!cluster) continue;
    const user = context.user ? (users.get(context.user) ?? null) : null;
    out.push({ context: context.name, server: cluster.server, config: { context, cluster, user } });
  }
  return out;
}
