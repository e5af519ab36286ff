import { useMemo } from 'react';
import type { KubeObject } from '../../../src-shared/contract/models';
import type { GuidanceAction } from '../../../src-shared/guidance';
import type { ResourceType } from '../../../src-shared/kube/kinds';
import { selectorText } from '../../../src-shared/kube/selector-text';
import { view, type Workload } from '../../kube/meta';
import { ownerOf } from '../../kube/owner';
import { useRoute } from '../../state/route';
import type { Pod } from '../resources/pod/types';
import { type ActionTarget, sectionForField } from './actions';

const SECTION: Partial<Record<GuidanceAction['kind'], string>> = {
  'show-conditions': 'conditions',
  'show-probes': 'probes',
  'show-volumes': 'volumes',
  'show-resources': 'resources',
};

/**
 * Pod sections are per topic; a workload shows probes, volumes and resources in its pod template;
 * any other kind (null) has only its conditions, the rest is in its YAML.
 */
function sectionFor(kind: ResourceType | null, action: GuidanceAction): string | undefined {
  if (kind === null) return action.kind === 'show-conditions' ? 'conditions' : undefined;
  if (action.kind === 'show-field') return sectionForField(action.path, kind);
  const s = SECTION[action.kind];
  if (!s) return undefined;
  if (kind !== 'pod' && s !== 'conditions')
    return kind === 'node' && s === 'resources' ? 'allocatable' : 'template';
  return s;
}

/** The guidance buttons of one object's pane, resolved against that object; kind null: not one of the nine. */
export function useObjectActions(kind: ResourceType | null, obj: KubeObject | undefined): ActionTarget {
  return useMemo<ActionTarget>(() => {
    const nodeName = kind === 'pod' && obj ? view<Pod>(obj).spec?.nodeName : undefined;
    const namespace = obj?.metadata.namespace ?? null;
    const workloadSelector =
      obj && kind !== null && kind !== 'pod' && kind !== 'node'
        ? selectorText(view<Workload>(obj).spec?.selector)
        : '';
    const route = () => useRoute.getState();

    const unavailable = (action: GuidanceAction): string | null => {
      if (!obj) return 'The object has not loaded yet.';
      switch (action.kind) {
        case 'open-logs':
          if (kind === 'node') return 'Node logs are not available in Skiff.';
          if (kind === null) return 'Only pods and workloads have logs.';
          return null;
        case 'open-owner': {
          const owner = ownerOf(obj);
          return owner.ok ? null : owner.reason;
        }
        case 'open-node-allocatable':
          // An unscheduled pod is exactly when capacity matters: its button opens every node's.
          if (kind === 'pod' && !nodeName) return null;
          if (kind !== 'pod' && kind !== 'node') return 'Open one of its pods to see the node it runs on.';
          return null;
        case 'open-node':
          if (kind === 'pod' && !nodeName) return 'The pod is not on a node yet (it has not been scheduled).';
          if (kind !== 'pod' && kind !== 'node') return 'Open one of its pods to see the node it runs on.';
          return null;
        case 'open-pods':
          return kind === null ? 'Pods are listed under Workloads.' : null;
        case 'show-field':
          return null;
        default:
          return null;
      }
    };

    const run = (action: GuidanceAction, container?: string) => {
      if (!obj || unavailable(action)) return;
      const r = route();
      switch (action.kind) {
        case 'open-logs':
          if (kind === 'pod') r.openLogs({ previous: action.previous, ...(container ? { container } : {}) });
          // A workload has no logs of its own: its pods do.
          else r.openList('pod', namespace, workloadSelector);
          return;
        case 'open-events':
          r.setTab('events');
          return;
        case 'open-owner': {
          const owner = ownerOf(obj);
          if (owner.ok)
            r.select({
              kind: owner.kind,
              name: owner.name,
              ...(owner.namespace ? { namespace: owner.namespace } : {}),
            });
          return;
        }
        case 'open-node':
          if (kind === 'node') r.focusSection('conditions');
          else if (nodeName) r.select({ kind: 'node', name: nodeName });
          return;
        case 'open-node-allocatable':
          if (kind === 'node') r.focusSection('allocatable');
          else if (kind === 'pod' && !nodeName) r.openList('node', null);
          else if (nodeName) {
            r.select({ kind: 'node', name: nodeName });
            r.focusSection('allocatable');
          }
          return;
        case 'open-pods':
          if (kind === 'node') r.focusSection('node-pods');
          else if (kind === 'pod') r.openList('pod', namespace);
          else r.openList('pod', namespace, workloadSelector);
          return;
        case 'open-nodes':
          r.openList('node', null);
          return;
        default: {
          const section = sectionFor(kind, action);
          if (section) r.focusSection(section);
          else r.setTab('yaml');
        }
      }
    };
    return { run, unavailable };
  }, [kind, obj]);
}
