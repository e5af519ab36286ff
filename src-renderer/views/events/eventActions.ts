import type { EventRecord } from '../../../src-shared/contract/models';
import { RESOURCE_TYPES, type ResourceType } from '../../../src-shared/kube/kinds';
import type { ResourceRef } from '../../state/route';
import { useRoute } from '../../state/route';
import type { ActionTarget } from '../guidance/actions';

/** The browsable object an event is about, or null for kinds Skiff does not list (ReplicaSet, PVC…). */
export function eventObject(e: Pick<EventRecord, 'involvedObject'>): ResourceRef | null {
  const kind = e.involvedObject.kind.toLowerCase();
  if (!(RESOURCE_TYPES as readonly string[]).includes(kind)) return null;
  const k = kind as ResourceType;
  const namespaced = k !== 'node' && k !== 'namespace';
  return {
    kind: k,
    name: e.involvedObject.name,
    ...(namespaced && e.involvedObject.namespace ? { namespace: e.involvedObject.namespace } : {}),
  };
}

/** In the cluster-wide list a guidance button opens the event's object and performs the action there. */
export function eventActionTarget(e: EventRecord): ActionTarget {
  const ref = eventObject(e);
  return {
    unavailable: () => (ref ? null : `Skiff does not browse ${e.involvedObject.kind} objects yet.`),
    run: (action, container) => {
      if (ref) useRoute.getState().openWithAction(ref, action, container);
    },
  };
}
