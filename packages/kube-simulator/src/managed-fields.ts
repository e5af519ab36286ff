/**
 * managedFields as a real apiserver records them. The fieldsV1 trie is derived from the part of
 * the object a manager wrote, using the same encoding server-side apply uses: "f:<field>" for
 * struct/map fields, "k:{...}" for list items keyed by merge key, "." for "the item itself".
 * Tries for objects of the same shape are identical, so callers pass a cache key and share one
 * frozen trie across thousands of objects instead of rebuilding it.
 */

import type { FieldsV1, ManagedFieldsEntry } from './types';

// Merge keys of the associative lists found in the kinds the simulator serves.
const LIST_KEYS: Record<string, readonly string[]> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  containerStatuses: ['name'],
  initContainerStatuses: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  ports: ['containerPort', 'protocol'],
  conditions: ['type'],
  ownerReferences: ['uid'],
  tolerations: [],
  podIPs: ['ip'],
  hostIPs: ['ip'],
  addresses: ['type'],
  images: [],
  taints: [],
  finalizers: [],
  args: [],
  command: [],
  ingress: [],
};

const SERVICE_PORT_KEYS = ['port', 'protocol'];
// Structs whose "." entry appears in real tries (pointer fields and maps).
const DOT_OWNED = new Set([
  'labels',
  'annotations',
  'matchLabels',
  'nodeSelector',
  'rollingUpdate',
  'resources',
  'limits',
  'requests',
  'readinessProbe',
  'livenessProbe',
  'startupProbe',
  'httpGet',
  'securityContext',
  'configMap',
  'secret',
  'persistentVolumeClaim',
  'emptyDir',
  'hostPath',
  'selector',
]);

const cache = new Map<string, FieldsV1>();

/** `value` may be a thunk so callers with a warm cache key skip building the owned slice. */
export function fieldsOf(value: unknown, cacheKey?: string, context = ''): FieldsV1 {
  if (cacheKey !== undefined) {
    const hit = cache.get(cacheKey);
    if (hit) return hit;
  }
  const trie = buildTrie(typeof value === 'function' ? value() : value, context);
  if (cacheKey !== undefined) cache.set(cacheKey, deepFreeze(trie));
  return trie;
}

function buildTrie(value: unknown, parentKey: string): FieldsV1 {
  const out: FieldsV1 = {};
  if (!isRecord(value)) return out;
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined || child === null) continue;
    out[`f:${key}`] = fieldTrie(key, child, parentKey);
  }
  return out;
}

function fieldTrie(key: string, child: unknown, parentKey: string): FieldsV1 {
  if (Array.isArray(child)) return listTrie(key, child, parentKey);
  if (!isRecord(child)) return {};
  const inner = buildTrie(child, key);
  return DOT_OWNED.has(key) && Object.keys(inner).length > 0 ? { '.': {}, ...inner } : inner;
}

function listTrie(key: string, items: unknown[], parentKey: string): FieldsV1 {
  const mergeKeys = key === 'ports' && parentKey === 'spec' ? SERVICE_PORT_KEYS : LIST_KEYS[key];
  if (!mergeKeys || mergeKeys.length === 0) {
    // Atomic lists and sets are owned as a whole.
    return {};
  }
  const out: FieldsV1 = {};
  for (const item of items) {
    if (!isRecord(item)) continue;
    const id: Record<string, unknown> = {};
    for (const k of mergeKeys) if (item[k] !== undefined) id[k] = item[k];
    out[`k:${JSON.stringify(id)}`] = { '.': {}, ...buildTrie(item, key) };
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

interface ManagerSpec {
  manager: string;
  apiVersion: string;
  time: string;
  /** The slice of the object this manager wrote, e.g. { metadata: {labels}, spec }, or a thunk. */
  owned: unknown;
  cacheKey?: string;
  subresource?: string;
  operation?: 'Update' | 'Apply';
}

export function managedEntry(spec: ManagerSpec): ManagedFieldsEntry {
  const entry: ManagedFieldsEntry = {
    manager: spec.manager,
    operation: spec.operation ?? 'Update',
    apiVersion: spec.apiVersion,
    time: spec.time,
    fieldsType: 'FieldsV1',
    fieldsV1: fieldsOf(spec.owned, spec.cacheKey),
  };
  if (spec.subresource) entry.subresource = spec.subresource;
  return entry;
}
