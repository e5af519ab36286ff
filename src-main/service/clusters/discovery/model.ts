/**
 * What discovery yields, whichever document it came from: the resources a cluster serves, one per
 * group and resource at the group's preferred version, and the group versions it could not read
 * (a gap never fails the rest). Subresources are never resources here.
 */

export interface ServedResource {
  /** "" for the core group. */
  readonly group: string;
  readonly version: string;
  /** The plural, as in URLs: "pods". */
  readonly resource: string;
  /** Lower-case singular: the apiserver's, else the lower-cased kind (as kubectl falls back). */
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
}

/** A group version whose discovery failed or is reported stale: `v1`, `metrics.k8s.io/v1beta1`. */
export interface DiscoveryGap {
  readonly groupVersion: string;
  readonly message: string;
}

export interface Discovery {
  readonly resources: readonly ServedResource[];
  readonly gaps: readonly DiscoveryGap[];
  /** Which documents were read: aggregated (apidiscovery.k8s.io/v2) or the legacy ones. */
  readonly source: 'aggregated' | 'legacy';
}

export const groupVersionOf = (group: string, version: string): string =>
  group === '' ? version : `${group}/${version}`;
