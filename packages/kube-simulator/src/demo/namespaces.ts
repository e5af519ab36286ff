/** Namespaces, with the labels and finalizers a real apiserver puts on them. */

import { managedEntry } from '../managed-fields';
import type { Gen } from './context';

export function buildNamespace(
  gen: Gen,
  name: string,
  createdAgoMs: number,
  labels: Record<string, string> = {},
): void {
  const created = gen.ago(createdAgoMs);
  const allLabels = { 'kubernetes.io/metadata.name': name, ...labels };
  gen.add({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: gen.uid(`ns/${name}`),
      resourceVersion: '',
      creationTimestamp: created,
      labels: allLabels,
      managedFields: [
        managedEntry({
          manager: name.startsWith('kube-') || name === 'default' ? 'kube-apiserver' : 'kubectl-create',
          apiVersion: 'v1',
          time: created,
          owned: { metadata: { labels: allLabels } },
          cacheKey: `ns|${Object.keys(allLabels).join(',')}`,
        }),
      ],
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  });
}
