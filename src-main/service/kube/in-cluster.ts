/**
 * The pod's own cluster as a cluster source (`serve --in-cluster`), the way client-go's
 * InClusterConfig reads it: the apiserver at $KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT,
 * the service account's `ca.crt` trusted, its `token` sent, its `namespace` the context's.
 * Rules:
 * - The result is an ordinary ContextSource whose cluster names the CA file and whose user names
 *   the token *file*, so everything a kubeconfig context gets (TLS, retries, credentials) applies,
 *   and the token is read again as it rotates (projected tokens expire hourly): at least every
 *   minute, and at once when the apiserver refuses the one held (credentials.ts).
 * - The service-account folder is /var/run/secrets/kubernetes.io/serviceaccount; tests point
 *   $SKIFF_SERVICE_ACCOUNT_DIR elsewhere.
 * - On by default only when it can work: $KUBERNETES_SERVICE_HOST set and the token and CA
 *   present. Asked for explicitly without them, it is an error saying what is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { ContextSource } from './kubeconfig';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
export const DEFAULT_CLUSTER_NAME = 'in-cluster';

/** `--in-cluster` asked for where it cannot work, saying why. */
export class InClusterError extends Error {}

export function serviceAccountDir(env: NodeJS.ProcessEnv): string {
  return env.SKIFF_SERVICE_ACCOUNT_DIR || SERVICE_ACCOUNT_DIR;
}

/** Why in-cluster cannot be used here, or null when it can. */
export function inClusterMissing(env: NodeJS.ProcessEnv): string | null {
  if (!env.KUBERNETES_SERVICE_HOST) return '$KUBERNETES_SERVICE_HOST is not set (not in a pod?)';
  const dir = serviceAccountDir(env);
  for (const file of ['token', 'ca.crt']) {
    if (!existsSync(join(dir, file))) return `the service account's ${file} is not in ${dir}`;
  }
  return null;
}

/**
 * Whether to connect to the pod's own cluster: `flag` is --in-cluster (true), --no-in-cluster
 * (false) or neither (undefined: on when it can work).
 */
export function wantsInCluster(flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (flag === false) return false;
  const missing = inClusterMissing(env);
  if (flag === true && missing) throw new InClusterError(`--in-cluster: ${missing}`);
  return missing === null;
}

/** The pod's cluster as a context named `name`. Call only when inClusterMissing says null. */
export function inClusterSource(name: string, env: NodeJS.ProcessEnv): ContextSource {
  const dir = serviceAccountDir(env);
  // Without the variable (a caller that did not ask inClusterMissing): the apiserver's DNS name.
  const host = env.KUBERNETES_SERVICE_HOST || 'kubernetes.default.svc';
  const port = env.KUBERNETES_SERVICE_PORT || '443';
  const server = `https://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
  let namespace: string | undefined;
  try {
    namespace = readFileSync(join(dir, 'namespace'), 'utf8').trim() || undefined;
  } catch {
    // A token mounted without its namespace file (a hand-made projection): no default namespace.
  }
  const cluster = { name, server, caFile: join(dir, 'ca.crt'), skipTLSVerify: false };
  const user = { name, tokenFile: join(dir, 'token') };
  const context = { name, cluster: name, user: name, ...(namespace ? { namespace } : {}) };
  return { context: name, server, config: { context, cluster, user } };
}
