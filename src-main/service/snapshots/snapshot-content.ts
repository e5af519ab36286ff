/**
 * A `.skiff` file as the simulator's captured content (the simulator package's CapturedContent),
 * for `--snapshot-kubeconfig`: kubectl needs an apiserver, so an opened snapshot is served by a
 * frozen simulator reading this. Rules: the file is read only when the simulator first asks for a
 * kind, the events, a log or the metrics; nothing is parsed here (the reader's objects carry their
 * text and how to decode it, as the simulator needs).
 */

import {
  type CapturedObject,
  type ContentProvider,
  capturedContent,
  type KubeObject,
} from '@skiff/kube-simulator';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import type { SnapshotFile } from './reader';

/**
 * The file's nine kinds, live events, logs and metrics as a simulator's content. The reader sets
 * kind and apiVersion on everything it gives, as the simulator needs.
 */
export function snapshotContent(file: SnapshotFile): ContentProvider {
  return capturedContent({
    objects: Object.fromEntries(
      RESOURCE_TYPES.map((t) => [RESOURCE_KINDS[t].kind, () => file.objects(t) as CapturedObject[]]),
    ),
    events: () => file.liveEvents() as CapturedObject[],
    log: (namespace, pod, container, previous) => file.log(namespace, pod, container, previous),
    podMetrics: () => file.podMetrics() as KubeObject[],
    nodeMetrics: () => file.nodeMetrics() as KubeObject[],
  });
}
