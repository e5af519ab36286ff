import type { EventRecord } from '../../../src-shared/contract/models';
import { BUILT_IN_ENTRIES, type KindEntry } from '../../kube/kind-catalog';
import { useKinds } from '../../state/kinds';
import type { ResourceRef } from '../../state/route';
import { useRoute } from '../../state/route';
import type { ActionTarget } from '../guidance/actions';
import { isKubernetesGroup } from '../navigation/kind-groups';

/**
 * The object an event is about, among the kinds the cluster serves, or null when none has its
 * Kind. An event names a Kind without its group; where several groups serve one Kind, Kubernetes'
 * own wins (events.k8s.io's Event over a CRD's), then the first served.
 */
export function eventObject(
  e: Pick<EventRecord, 'involvedObject'>,
  kinds: readonly KindEntry[] = useKinds.getState().entries,
): ResourceRef | null {
  const all = kinds.length > 0 ? kinds : BUILT_IN_ENTRIES;
  const named = all.filter((k) => k.kind === e.involvedObject.kind);
  const entry = named.find((k) => isKubernetesGroup(k.group)) ?? named[0];
  if (!entry) return null;
  return {
    kind: entry.resourceType,
    name: e.involvedObject.name,
    ...(entry.namespaced && e.involvedObject.namespace ? { namespace: e.involvedObject.namespace } : {}),
  };
}

/** In the cluster-wide list a guidance button opens the event's object and performs the action there. */
export function eventActionTarget(e: EventRecord): ActionTarget {
  const ref = eventObject(e);
  return {
    unavailable: () => (ref ? null : `This cluster serves no kind called ${e.involvedObject.kind}.`),
    run: (action, container) => {
      if (ref) useRoute.getState().openWithAction(ref, action, container);
    },
  };
}
