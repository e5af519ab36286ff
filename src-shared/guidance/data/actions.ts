import type { GuidanceAction, GuidanceFieldPath } from '../types';

// Shorthands so the data files stay readable; each is a plain GuidanceAction value.
export const LOGS: GuidanceAction = { kind: 'open-logs', previous: false };
export const LOGS_PREV: GuidanceAction = { kind: 'open-logs', previous: true };
export const EVENTS: GuidanceAction = { kind: 'open-events' };
export const OWNER: GuidanceAction = { kind: 'open-owner' };
export const NODE: GuidanceAction = { kind: 'open-node' };
export const ALLOCATABLE: GuidanceAction = { kind: 'open-node-allocatable' };
export const PODS: GuidanceAction = { kind: 'open-pods' };
export const NODES: GuidanceAction = { kind: 'open-nodes' };
export const CONDITIONS: GuidanceAction = { kind: 'show-conditions' };
export const PROBES: GuidanceAction = { kind: 'show-probes' };
export const VOLUMES: GuidanceAction = { kind: 'show-volumes' };
export const RESOURCES: GuidanceAction = { kind: 'show-resources' };

export function field(path: GuidanceFieldPath): GuidanceAction {
  return { kind: 'show-field', path };
}
