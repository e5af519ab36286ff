/**
 * One kind as the service reads and serves it, whichever it is: one of the nine tailored kinds
 * (src-shared/kube/kinds.ts, whose rows have this shape) or any other kind a cluster's discovery
 * names (discovery/names.ts). Caches, single reads, relations and snapshots all take a KindInfo,
 * so nothing past name resolution (resolve-kind.ts) treats the nine apart. A kind is identified by
 * its group and plural: two versions of one resource are one kind, served at the preferred version.
 */

import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import type { DiscoveredKind } from './discovery/names';

export interface KindInfo {
  /** The canonical name in URLs: lower-case singular, `singular.group` where two groups share it. */
  readonly resourceType: string;
  /** Lower-case singular. */
  readonly singular: string;
  /** The resource in URLs: `pods`, `certificates`. */
  readonly plural: string;
  readonly kind: string;
  /** "" for the core group. */
  readonly group: string;
  readonly version: string;
  /** `/api/v1` or `/apis/{group}/{version}`: the kind's collection is `{apiPath}/{plural}`. */
  readonly apiPath: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
}

/** The nine, in the tree's order. */
export const TAILORED_KINDS: readonly KindInfo[] = RESOURCE_TYPES.map((t) => RESOURCE_KINDS[t]);

/** What identifies a kind in a cluster: its group and plural (`apps/deployments`, `/pods`). */
export const kindKey = (kind: Pick<KindInfo, 'group' | 'plural'>): string => `${kind.group}/${kind.plural}`;

export const apiVersionOf = (kind: Pick<KindInfo, 'group' | 'version'>): string =>
  kind.group ? `${kind.group}/${kind.version}` : kind.version;

const tailoredByKey = new Map(TAILORED_KINDS.map((k) => [kindKey(k), k]));

/**
 * A discovered kind as a KindInfo. One of the nine keeps its tailored row (the version its
 * columns and details are written for), so a kind reached by either road is the same object.
 */
export function kindOfDiscovered(k: DiscoveredKind): KindInfo {
  const tailored = tailoredByKey.get(`${k.group}/${k.resource}`);
  if (tailored) return tailored;
  return {
    resourceType: k.resourceType,
    singular: k.singular.toLowerCase(),
    plural: k.resource,
    kind: k.kind,
    group: k.group,
    version: k.version,
    apiPath: k.group === '' ? `/api/${k.version}` : `/apis/${k.group}/${k.version}`,
    namespaced: k.namespaced,
    shortNames: k.shortNames,
    categories: k.categories,
  };
}

/** The Secret kind: its values never leave the cluster (secrets-strip.ts). */
export const isSecretKind = (kind: Pick<KindInfo, 'group' | 'plural'>): boolean =>
  kind.group === '' && kind.plural === 'secrets';

/** Events of either API: served by the events endpoints, never as resources. */
export const isEventKind = (kind: Pick<KindInfo, 'group' | 'plural'>): boolean =>
  kind.plural === 'events' && (kind.group === '' || kind.group === 'events.k8s.io');
