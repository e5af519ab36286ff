/** A kubeconfig pointing at the simulator: plain http needs insecure-skip-tls-verify for client-node. */

export function kubeconfigYaml(server: string, token: string, contextName = 'demo'): string {
  const name = JSON.stringify(contextName);
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `  - name: ${name}`,
    '    cluster:',
    `      server: ${JSON.stringify(server)}`,
    '      insecure-skip-tls-verify: true',
    'users:',
    `  - name: ${name}`,
    '    user:',
    `      token: ${JSON.stringify(token)}`,
    'contexts:',
    `  - name: ${name}`,
    '    context:',
    `      cluster: ${name}`,
    `      user: ${name}`,
    '      namespace: default',
    `current-context: ${name}`,
    '',
  ].join('\n');
}
