/**
 * A kubeconfig pointing at the simulator, written the way kubectl reads one. Over HTTPS the
 * cluster carries `certificate-authority-data` (the simulator's CA, base64 PEM); over plain HTTP
 * it carries `insecure-skip-tls-verify`, which client-node requires before it speaks http at all.
 * The user is a bearer token, a client certificate (`client-certificate-data`/`client-key-data`)
 * or an `exec` credential plugin (client.authentication.k8s.io/v1, never interactive).
 */

import { stringify } from 'yaml';

export interface ExecPluginConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Default client.authentication.k8s.io/v1. */
  apiVersion?: string;
  installHint?: string;
  provideClusterInfo?: boolean;
  /** Default Never: the plugin must not ask anyone anything. */
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
}

export type KubeconfigUser =
  | { token: string }
  | { clientCert: { certPem: string; keyPem: string } }
  | { exec: ExecPluginConfig };

interface KubeconfigOptions {
  server: string;
  contextName?: string;
  /** The CA to trust (PEM); required for an https server. */
  caPem?: string;
  user: KubeconfigUser;
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

function userEntry(user: KubeconfigUser): Record<string, unknown> {
  if ('token' in user) return { token: user.token };
  if ('clientCert' in user) {
    return {
      'client-certificate-data': b64(user.clientCert.certPem),
      'client-key-data': b64(user.clientCert.keyPem),
    };
  }
  const { exec } = user;
  return {
    exec: {
      apiVersion: exec.apiVersion ?? 'client.authentication.k8s.io/v1',
      command: exec.command,
      ...(exec.args ? { args: exec.args } : {}),
      ...(exec.env ? { env: Object.entries(exec.env).map(([name, value]) => ({ name, value })) } : {}),
      ...(exec.installHint ? { installHint: exec.installHint } : {}),
      provideClusterInfo: exec.provideClusterInfo ?? false,
      interactiveMode: exec.interactiveMode ?? 'Never',
    },
  };
}

export function kubeconfigYaml(opts: KubeconfigOptions): string {
  const name = opts.contextName ?? 'demo';
  const https = opts.server.startsWith('https:');
  if (https && !opts.caPem) throw new Error('an https kubeconfig needs the CA to trust');
  const cluster = https
    ? { server: opts.server, 'certificate-authority-data': b64(opts.caPem as string) }
    : { server: opts.server, 'insecure-skip-tls-verify': true };
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name, user: userEntry(opts.user) }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
  };
  // Values double-quoted as JSON would write them (tools rewrite the server URL by its JSON form),
  // and never folded, so base64 data stays on one line as kubectl writes it.
  return stringify(doc, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 });
}
