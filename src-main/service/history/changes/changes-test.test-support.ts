/**
 * Helpers of the change-recording tests: the rows the service recorded (read after its flush),
 * objects of a namespace of the test's own in the simulator, and a service restarted on a stack's
 * data dir.
 */
import type { KubeObjectInput } from '@skiff/kube-simulator';
import { createService, type Service, type ServiceConfig } from '../../index';
import { loadContexts } from '../../kube/kubeconfig';
import { silentLogger } from '../../logger';
import type { Stack } from '../../test-support/harness.test-support';
import { TEST_ADMIN_PASSWORD } from '../../test-support/login.test-support';
import type { ChangeKind } from './summary';

export interface StoredChange {
  id: number;
  cluster_id: string;
  time_ms: number;
  resource_type: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  change: ChangeKind;
  resource_version: string;
  patch: string;
  summary: string;
  object: string | null;
}

/** Every row recorded for `resourceType` (in `namespace`, when given), in id order, after a flush. */
export async function recordedRows(
  service: Service,
  resourceType: string,
  namespace?: string,
): Promise<StoredChange[]> {
  await service.recorded.changes?.flush();
  return service.recorded.deps.backend.all<StoredChange>(
    `SELECT * FROM change_history WHERE resource_type = $type ${namespace !== undefined ? 'AND namespace = $ns' : ''} ORDER BY id`,
    { type: resourceType, ...(namespace !== undefined ? { ns: namespace } : {}) },
  );
}

export const namespaceObject = (name: string): KubeObjectInput => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
});

export function deployment(ns: string, name: string, image: string, replicas = 1): KubeObjectInput {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image }] },
      },
    },
  };
}

/** A service on the stack's data dir (the stack's own closed first), with these options. */
export function restartedService(stack: Stack, over: Partial<ServiceConfig> = {}): Service {
  return createService({
    contexts: loadContexts([stack.kubeconfigPath]),
    dataDir: stack.dataDir,
    logger: silentLogger(),
    adminPassword: TEST_ADMIN_PASSWORD,
    ...over,
  });
}
